import { createHash, randomUUID } from 'node:crypto';
import type { RequestTools } from '@clawsmith/deferred-tools';
import {
  collectModelResponse,
  type AssistantModelMessage,
  type ModelMessage,
  type ModelResponse,
} from '@clawsmith/providers';
import { ClawsmithError, resultMetadata, toolError, type ToolExecutionResult } from '@clawsmith/tool-protocol';
import type { RunTurnOptions, TurnResult, TurnStatus } from './agent-core-options.js';
import type { CoreServices } from './core-services.js';
import type { CallRuntime } from './lifecycle/call-context.js';
import { completedEvent } from './lifecycle/execute-call.js';
import { runToolCalls } from './lifecycle/run-tool-calls.js';
import { assertHomeOutsideWorkspace } from './home-placement.js';
import { openTurn } from './turn-opening.js';

function requestModel(
  services: CoreServices,
  messages: readonly ModelMessage[],
  tools: RequestTools['tools'],
  requestId: string,
  options: RunTurnOptions,
  signal: AbortSignal,
): Promise<ModelResponse> {
  const system = options.systemPrompt ?? services.systemPrompt;
  const stream = services.provider.stream({ requestId, messages, tools, signal, ...(system ? { system } : {}) });
  return collectModelResponse(stream, options.onTextDelta ? { onTextDelta: options.onTextDelta } : {});
}

/** How a response that the model did not end on its own ends the turn. */
function unfinishedOutcome(
  finishReason: ModelResponse['finishReason'],
): { status: TurnStatus; error: NonNullable<TurnResult['error']> } | undefined {
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

function describeFailure(error: unknown): { code: string; message: string; retryable: boolean } {
  if (ClawsmithError.isInstance(error)) return { code: error.code, message: error.message, retryable: error.retryable };
  if (error instanceof Error && error.name === 'AbortError')
    return { code: 'cancelled', message: 'The turn was cancelled.', retryable: false };
  return { code: 'provider_failed', message: error instanceof Error ? error.message : String(error), retryable: false };
}

async function closeUnrunCalls(
  runtime: CallRuntime,
  history: ModelMessage[],
  response: ModelResponse,
  reason: NonNullable<TurnResult['error']>,
): Promise<void> {
  if (response.toolCalls.length === 0) return;
  const result: ToolExecutionResult = toolError(reason.code, `This call did not run: ${reason.message}`);
  const messages: ModelMessage[] = response.toolCalls.map((call) => ({
    role: 'tool',
    toolCallId: call.id,
    toolName: call.name,
    content: result.content,
    toolResult: resultMetadata(result),
  }));
  await runtime.store.appendEvents(
    runtime.sessionId,
    response.toolCalls.map((call) => completedEvent(runtime, { call, result })),
  );
  await runtime.store.appendMessages(runtime.sessionId, runtime.turnId, messages);
  history.push(...messages);
}

/**
 * One turn: open a restore point, send the conversation to the model, run its tool calls, and
 * repeat until the model answers without tool calls, the turn is cancelled, or the step limit.
 * Every assistant tool call gets exactly one tool result, in call order.
 */
export async function runTurn(services: CoreServices, options: RunTurnOptions): Promise<TurnResult> {
  const { store } = services;
  const session = await store.requireSession(options.sessionId);
  if (services.homeFolder) assertHomeOutsideWorkspace(services.homeFolder, session.workspaceRoot);
  if (services.runningSessions.has(session.id)) {
    throw new ClawsmithError(
      'turn_in_progress',
      `A turn is already running in session ${session.id}; wait for it or cancel it first.`,
    );
  }
  services.runningSessions.add(session.id);
  const controller = new AbortController();
  const forwardAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', forwardAbort, { once: true });
  if (options.signal?.aborted) controller.abort();
  try {
    const { turnId, activation, checkpoint } = await openTurn(services, session, options.prompt);
    await store.setTitle(session.id, options.prompt.replace(/\s+/g, ' ').slice(0, 80));
    await store.appendEvent(session.id, {
      type: 'turn.started',
      turnId,
      prompt: options.prompt,
      restorePointId: checkpoint.restorePointId,
    });
    // Background subagents that finished since the last turn are delivered once, before the prompt.
    const notice = await services.subagents?.takeNotice(session.id);
    if (notice) await store.appendEvent(session.id, { type: 'background.notified', turnId, tasks: notice.results });
    await store.appendMessages(session.id, turnId, [
      { role: 'user', text: notice ? `${notice.text}\n\n${options.prompt}` : options.prompt },
    ]);
    // The history is read once; the turn appends to this copy as it appends to the store.
    const history: ModelMessage[] = await store.listMessages(session.id);

    const runtime: CallRuntime = {
      table: services.table,
      gate: (name) => services.catalog.gate(name, activation),
      store,
      sessionId: session.id,
      turnId,
      workspaceRoot: session.workspaceRoot,
      signal: controller.signal,
      permissionMode: services.permissionMode,
      rules: services.rules,
      hooks: services.hooks,
      ...(services.approvalHandler ? { approvalHandler: services.approvalHandler } : {}),
      sessionAllowances: services.sessionAllowances(session.id),
      recorder: checkpoint.recorder,
      ...(services.artifacts ? { artifacts: services.artifacts } : {}),
      inlineContentLimit: services.inlineContentLimit,
      cancelGraceMs: services.cancelGraceMs,
      seenCallIds: new Set(),
    };

    const system = options.systemPrompt ?? services.systemPrompt;
    // The request evidence names the exact instructions sent, without copying them into every event.
    const systemEvidence = system
      ? {
          systemPromptSha256: createHash('sha256').update(system).digest('hex'),
          systemPromptBytes: Buffer.byteLength(system),
        }
      : {};
    let status: TurnStatus = 'step_limit';
    let text = '';
    let steps = 0;
    let failure: TurnResult['error'];
    while (steps < services.maxSteps) {
      if (controller.signal.aborted) {
        status = 'cancelled';
        break;
      }
      steps += 1;
      const requestId = randomUUID();
      const request = services.requestTools(activation);
      await store.appendEvent(session.id, {
        type: 'request.started',
        turnId,
        requestId,
        step: steps,
        ...request.evidence,
        ...systemEvidence,
      });
      let response: ModelResponse;
      try {
        response = await requestModel(services, history, request.tools, requestId, options, controller.signal);
      } catch (error) {
        failure = controller.signal.aborted ? undefined : describeFailure(error);
        status = controller.signal.aborted ? 'cancelled' : 'failed';
        await store.appendEvent(session.id, {
          type: 'request.failed',
          turnId,
          requestId,
          ...(failure ?? { code: 'cancelled', message: 'The turn was cancelled.', retryable: false }),
        });
        break;
      }
      await store.appendEvent(session.id, {
        type: 'request.completed',
        turnId,
        requestId,
        finishReason: response.finishReason,
        toolCallCount: response.toolCalls.length,
        ...(response.usage ? { usage: response.usage } : {}),
      });
      text = response.text;
      const assistant: AssistantModelMessage = {
        role: 'assistant',
        text: response.text,
        toolCalls: response.toolCalls,
      };
      await store.appendMessages(session.id, turnId, [assistant]);
      history.push(assistant);
      await store.appendEvent(session.id, {
        type: 'assistant.message',
        turnId,
        text: response.text,
        toolCalls: response.toolCalls.map((call) => ({ id: call.id, name: call.name })),
      });
      const unfinished = controller.signal.aborted ? undefined : unfinishedOutcome(response.finishReason);
      if (unfinished) {
        // The calls of a cut or refused answer may be incomplete: none runs, each is closed.
        await closeUnrunCalls(runtime, history, response, unfinished.error);
        status = unfinished.status;
        failure = unfinished.error;
        break;
      }
      if (response.toolCalls.length === 0) {
        status = controller.signal.aborted ? 'cancelled' : 'completed';
        break;
      }
      const outcomes = await runToolCalls(runtime, response.toolCalls);
      const toolMessages: ModelMessage[] = outcomes.map(({ call, result }) => ({
        role: 'tool',
        toolCallId: call.id,
        toolName: call.name,
        content: result.content,
        toolResult: resultMetadata(result),
      }));
      await store.appendMessages(session.id, turnId, toolMessages);
      history.push(...toolMessages);
      await store.setActivation(session.id, activation.activeTools());
    }

    const manifest = await checkpoint.complete();
    const changedFiles = manifest.files.map((file) => ({
      path: file.path,
      change: file.change,
      linesAdded: file.linesAdded ?? 0,
      linesRemoved: file.linesRemoved ?? 0,
    }));
    await store.completeTurn(session.id, turnId, status);
    await store.appendEvent(session.id, {
      type: 'turn.completed',
      turnId,
      status,
      steps,
      restorePointId: checkpoint.restorePointId,
      manifest: {
        files: changedFiles.length,
        linesAdded: manifest.totals.linesAdded,
        linesRemoved: manifest.totals.linesRemoved,
        paths: changedFiles.map((file) => file.path),
      },
      ...(failure ? { error: failure } : {}),
    });
    return {
      sessionId: session.id,
      turnId,
      status,
      text,
      steps,
      restorePointId: checkpoint.restorePointId,
      changedFiles,
      ...(failure ? { error: failure } : {}),
    };
  } finally {
    options.signal?.removeEventListener('abort', forwardAbort);
    services.runningSessions.delete(session.id);
  }
}
