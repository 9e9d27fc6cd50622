import { createHash, randomUUID } from 'node:crypto';
import {
  collectModelResponse,
  type AssistantModelMessage,
  type ModelMessage,
  type ModelResponse,
} from '@clawsmith/providers';
import { ClawsmithError, toolError } from '@clawsmith/tool-protocol';
import type { RunTurnOptions, TurnResult, TurnStatus } from './agent-core-options.js';
import type { CoreServices } from './core-services.js';
import { completedEvent } from './lifecycle/execute-call.js';
import { runToolCalls } from './lifecycle/run-tool-calls.js';
import type { TurnContext } from './lifecycle/turn-context.js';
import { assertHomeOutsideWorkspace } from './home-placement.js';
import { TurnContextView } from './context/turn-context-view.js';
import { closeTurn, recordToolResults } from './turn-closing.js';
import { openTurn } from './turn-opening.js';
import { claimSession, whileHeld } from './turn-claims/session-claim.js';
import { MAX_STOP_CONTINUATIONS, type TurnHookInput } from './turn-hooks.js';
import { startSession } from './session-hooks.js';

type TurnFailure = NonNullable<TurnResult['error']>;

/** How a model step ended the turn, or `undefined` when the turn goes on. */
type StepEnd = { status: TurnStatus; error?: TurnFailure } | undefined;

/** How a response that the model did not end on its own ends the turn. */
function unfinishedOutcome(
  finishReason: ModelResponse['finishReason'],
): { status: TurnStatus; error: TurnFailure } | undefined {
  if (finishReason === 'length')
    return {
      status: 'incomplete',
      error: {
        code: 'model_output_truncated',
        message:
          "The model's answer was cut off by its output token limit; its tool calls in that answer did not run. Ask for a smaller step, or raise the model's output limit.",
        retryable: true,
      },
    };
  if (finishReason === 'error')
    return {
      status: 'failed',
      error: {
        code: 'model_response_refused',
        message:
          'The provider ended the answer itself (a content filter or a refusal); its tool calls did not run. Rephrase the request.',
        retryable: false,
      },
    };
  return undefined;
}

function describeFailure(error: unknown): TurnFailure {
  if (ClawsmithError.isInstance(error)) return { code: error.code, message: error.message, retryable: error.retryable };
  if (error instanceof Error && error.name === 'AbortError')
    return { code: 'cancelled', message: 'The turn was cancelled.', retryable: false };
  return { code: 'provider_failed', message: error instanceof Error ? error.message : String(error), retryable: false };
}

/** Gives each call of a cut or refused answer its one result, without running it. */
async function closeUnrunCalls(
  turn: TurnContext,
  history: ModelMessage[],
  response: ModelResponse,
  reason: TurnFailure,
): Promise<void> {
  if (response.toolCalls.length === 0) return;
  const result = toolError(reason.code, `This call did not run: ${reason.message}`);
  const outcomes = response.toolCalls.map((call) => ({ call, result }));
  await recordToolResults(turn, history, {
    outcomes,
    unwrittenEvents: outcomes.map((outcome) => completedEvent(turn, outcome)),
  });
}

/** Records the prompt: the title, `turn.started`, finished background results, the user message (with what prompt hooks added). */
async function recordPrompt(turn: TurnContext, prompt: string, hookContext?: string): Promise<void> {
  const { store, subagents } = turn.core;
  const sessionId = turn.session.id;
  await store.setTitle(sessionId, prompt.replace(/\s+/g, ' ').slice(0, 80));
  await store.appendEvent(sessionId, {
    type: 'turn.started',
    turnId: turn.turnId,
    prompt,
    restorePointId: turn.checkpoint.restorePointId,
  });
  // Background subagents that finished since the last turn are delivered once, before the prompt.
  const notice = await subagents?.takeNotice(sessionId);
  if (notice)
    await store.appendEvent(sessionId, { type: 'background.notified', turnId: turn.turnId, tasks: notice.results });
  const text = hookContext ? `${prompt}\n\n[hook] ${hookContext}` : prompt;
  await store.appendMessages(sessionId, turn.turnId, [
    { role: 'user', text: notice ? `${notice.text}\n\n${text}` : text },
  ]);
}

/**
 * Closes a turn that never reached the model (a prompt hook blocked it, a session start hook
 * failed). The blocked prompt itself is not kept (it may hold what the hook guards).
 */
async function closeUnsentTurn(
  turn: TurnContext,
  recordedPrompt: string,
  error: { code: string; message: string; retryable: boolean },
): Promise<TurnResult> {
  await turn.core.store.appendEvent(turn.session.id, {
    type: 'turn.started',
    turnId: turn.turnId,
    prompt: recordedPrompt,
    restorePointId: turn.checkpoint.restorePointId,
  });
  const changedFiles = await closeTurn(turn, { status: 'failed', steps: 0, error });
  return {
    sessionId: turn.session.id,
    turnId: turn.turnId,
    status: 'failed',
    text: '',
    steps: 0,
    restorePointId: turn.checkpoint.restorePointId,
    changedFiles,
    error,
  };
}

/**
 * Asks the stop hooks whether a turn the model ended goes on: a reason to continue is sent to
 * the model as a user message (bounded by {@link MAX_STOP_CONTINUATIONS}); a failing hook ends
 * the turn failed, naming it.
 */
async function stopOrContinue(
  turn: TurnContext,
  history: ModelMessage[],
  input: TurnHookInput & { continued: number; lastText: string },
): Promise<StepEnd> {
  const verdict = await turn.turnHooks!.stopping!(input);
  if (verdict.failure !== undefined)
    return { status: 'failed', error: { code: 'hook_failed', message: verdict.failure, retryable: false } };
  if (verdict.continueWith === undefined) return { status: 'completed' };
  const message: ModelMessage = { role: 'user', text: `[hook] ${verdict.continueWith}` };
  await turn.core.store.appendMessages(turn.session.id, turn.turnId, [message]);
  history.push(message);
  return undefined;
}

function isClaimLost(error: unknown): error is ClawsmithError {
  return ClawsmithError.isInstance(error) && error.code === 'turn_claim_lost';
}

/**
 * The result of a turn whose claim another process took over: cancelled with `turn_claim_lost`.
 * The taker's recovery closed the turn (`interrupted`) and recorded its end; this process wrote
 * nothing after it noticed, so `changedFiles` is empty and the turn's record is the taker's.
 */
function claimLostResult(
  opened: { turn: TurnContext; view?: TurnContextView; text: string; steps: number },
  error: ClawsmithError,
): TurnResult {
  const { turn, view } = opened;
  return {
    sessionId: turn.session.id,
    turnId: turn.turnId,
    status: 'cancelled',
    text: opened.text,
    steps: opened.steps,
    restorePointId: turn.checkpoint.restorePointId,
    changedFiles: [],
    ...(view ? { usage: view.usage } : {}),
    error: { code: error.code, message: error.message, retryable: false },
  };
}

/** The model's instructions for this turn, and the request evidence that names them without copying them. */
function systemPromptOf(core: CoreServices, options: RunTurnOptions) {
  const system = options.systemPrompt ?? core.systemPrompt;
  const evidence = system
    ? {
        systemPromptSha256: createHash('sha256').update(system).digest('hex'),
        systemPromptBytes: Buffer.byteLength(system),
      }
    : {};
  return { system, evidence };
}

/** Whether a failure says the request was longer than the model's context window. */
function isContextTooLong(error: unknown): boolean {
  return ClawsmithError.isInstance(error) && error.code === 'provider_context_too_long';
}

/**
 * Sends the model's view of the history (compacted first when it would pass the threshold) and
 * collects its answer, with `request.*` events around it. A request refused as too long is
 * compacted and sent again once; a request that would pass a token budget is not sent.
 */
async function requestModel(
  turn: TurnContext,
  view: TurnContextView,
  history: readonly ModelMessage[],
  step: number,
  options: RunTurnOptions,
): Promise<{ response: ModelResponse } | { end: StepEnd }> {
  const { store } = turn.core;
  const request = turn.core.requestTools(turn.activation);
  const { system, evidence } = systemPromptOf(turn.core, options);
  const shape = { system, tools: request.tools, signal: turn.signal };
  let prepared = await view.prepare(history, shape);
  for (let attempt = 0; ; attempt += 1) {
    const overBudget = view.budgetFailure(prepared.estimatedInputTokens);
    if (overBudget) return { end: { status: 'incomplete', error: overBudget } };
    const requestId = randomUUID();
    await store.appendEvent(turn.session.id, {
      type: 'request.started',
      turnId: turn.turnId,
      requestId,
      step,
      ...request.evidence,
      ...evidence,
      estimatedInputTokens: prepared.estimatedInputTokens,
    });
    let response: ModelResponse;
    try {
      const stream = turn.core.provider.stream({
        requestId,
        messages: prepared.messages,
        tools: request.tools,
        signal: turn.signal,
        cacheKey: turn.session.id,
        ...(system ? { system } : {}),
      });
      response = await collectModelResponse(stream, options.onTextDelta ? { onTextDelta: options.onTextDelta } : {});
    } catch (error) {
      const failure = turn.signal.aborted ? undefined : describeFailure(error);
      await store.appendEvent(turn.session.id, {
        type: 'request.failed',
        turnId: turn.turnId,
        requestId,
        ...(failure ?? { code: 'cancelled', message: 'The turn was cancelled.', retryable: false }),
      });
      if (failure && attempt === 0 && isContextTooLong(error)) {
        // Compact harder and send once more; a second refusal ends the turn.
        view.learnOverflow(prepared);
        prepared = await view.prepare(history, shape, 'overflow');
        continue;
      }
      return { end: failure ? { status: 'failed', error: failure } : { status: 'cancelled' } };
    }
    view.record(response.usage, prepared);
    await store.appendEvent(turn.session.id, {
      type: 'request.completed',
      turnId: turn.turnId,
      requestId,
      finishReason: response.finishReason,
      toolCallCount: response.toolCalls.length,
      ...(response.usage ? { usage: response.usage } : {}),
      ...(response.model ? { responseModel: response.model } : {}),
    });
    return { response };
  }
}

/** Records the model's answer, then runs its tool calls (or closes them unrun); says whether the turn ends. */
async function answerModel(turn: TurnContext, history: ModelMessage[], response: ModelResponse): Promise<StepEnd> {
  const { store } = turn.core;
  const assistant: AssistantModelMessage = { role: 'assistant', text: response.text, toolCalls: response.toolCalls };
  await store.recordStep(turn.session.id, {
    turnId: turn.turnId,
    events: [
      {
        type: 'assistant.message',
        turnId: turn.turnId,
        text: response.text,
        toolCalls: response.toolCalls.map((call) => ({ id: call.id, name: call.name })),
      },
    ],
    messages: [assistant],
  });
  history.push(assistant);
  const unfinished = turn.signal.aborted ? undefined : unfinishedOutcome(response.finishReason);
  if (unfinished) {
    // The calls of a cut or refused answer may be incomplete: none runs, each is closed.
    await closeUnrunCalls(turn, history, response, unfinished.error);
    return unfinished;
  }
  if (response.toolCalls.length === 0) return { status: turn.signal.aborted ? 'cancelled' : 'completed' };
  await recordToolResults(turn, history, await runToolCalls(turn, response.toolCalls));
  return undefined;
}

/**
 * One turn: open a restore point, send the conversation to the model, run its tool calls, and
 * repeat until the model answers without tool calls, the turn is cancelled, or the step limit.
 * Every assistant tool call gets exactly one tool result, in call order.
 */
export async function runTurn(core: CoreServices, options: RunTurnOptions): Promise<TurnResult> {
  const { store } = core;
  const session = await store.requireSession(options.sessionId);
  if (core.homeFolder) assertHomeOutsideWorkspace(core.homeFolder, session.workspaceRoot);
  const held = await claimSession(
    core,
    session.id,
    `A turn is already running in session ${session.id}; wait for it or cancel it first.`,
  );
  const controller = new AbortController();
  const forwardAbort = () => controller.abort(options.signal?.reason);
  const claimLost = () => controller.abort(held.lost.reason);
  options.signal?.addEventListener('abort', forwardAbort, { once: true });
  held.lost.addEventListener('abort', claimLost, { once: true });
  if (options.signal?.aborted) controller.abort();
  // What the turn did so far, for the result of a turn whose claim was taken over mid-way.
  let opened: { turn: TurnContext; view?: TurnContextView; text: string; steps: number } | undefined;
  return whileHeld(held, async () => {
    try {
      const hadTurns = (await store.listTurns(session.id)).length > 0;
      const turn = await openTurn(core, session, options.prompt, {
        signal: controller.signal,
        held,
        ...(options.permissionMode ? { permissionMode: options.permissionMode } : {}),
        ...(options.settings ? { settings: options.settings } : {}),
      });
      opened = { turn, text: '', steps: 0 };
      const hookInput = { sessionId: session.id, turnId: turn.turnId, workspaceRoot: session.workspaceRoot };
      const hooks = turn.turnHooks;
      const started = await startSession(core, session, hooks, hadTurns);
      if (started.failure !== undefined)
        return await closeUnsentTurn(turn, options.prompt, {
          code: 'hook_failed',
          message: `A SessionStart hook failed, so the session did not start: ${started.failure}`,
          retryable: false,
        });
      const submitted = hooks?.promptSubmitted
        ? await hooks.promptSubmitted({ ...hookInput, prompt: options.prompt })
        : {};
      if (submitted.block !== undefined)
        return await closeUnsentTurn(turn, '[the prompt was blocked by a hook]', {
          code: 'prompt_blocked',
          message: `A hook blocked the prompt: ${submitted.block}`,
          retryable: false,
        });
      const context = [started.context, submitted.context].filter(Boolean).join('\n');
      await recordPrompt(turn, options.prompt, context || undefined);
      // The history is read once; the turn appends to this copy as it appends to the store.
      const history: ModelMessage[] = await store.listMessages(session.id);
      const view = await TurnContextView.open(core, session.id, turn.turnId, {
        workspaceRoot: session.workspaceRoot,
        ...(hooks ? { turnHooks: hooks } : {}),
      });
      opened.view = view;
      let end: StepEnd;
      let text = '';
      let steps = 0;
      let continued = 0;
      while (!end && steps < core.maxSteps) {
        if (controller.signal.aborted) {
          end = { status: 'cancelled' };
          break;
        }
        steps += 1;
        opened.steps = steps;
        const requested = await requestModel(turn, view, history, steps, options);
        if ('end' in requested) {
          end = requested.end;
          break;
        }
        text = requested.response.text;
        opened.text = text;
        end = await answerModel(turn, history, requested.response);
        if (end?.status === 'completed' && hooks?.stopping && continued < MAX_STOP_CONTINUATIONS) {
          end = await stopOrContinue(turn, history, { ...hookInput, continued, lastText: text });
          if (!end) continued += 1;
        }
      }
      const { status, error } = end ?? { status: 'step_limit' };
      const usage = view.usage;
      const changedFiles = await closeTurn(turn, { status, steps, usage, ...(error ? { error } : {}) });
      return {
        sessionId: session.id,
        turnId: turn.turnId,
        status,
        text,
        steps,
        restorePointId: turn.checkpoint.restorePointId,
        changedFiles,
        usage,
        ...(error ? { error } : {}),
      };
    } catch (error) {
      if (opened === undefined || !isClaimLost(error)) throw error;
      return claimLostResult(opened, error);
    } finally {
      options.signal?.removeEventListener('abort', forwardAbort);
      held.lost.removeEventListener('abort', claimLost);
    }
  });
}
