import { randomUUID } from 'node:crypto';
import type { RequestTools } from '@clawsmith/deferred-tools';
import type { AssistantModelMessage, ModelMessage, ModelResponse, ModelToolCall } from '@clawsmith/providers';
import { ClawsmithError, resultMetadata } from '@clawsmith/tool-protocol';
import type { RunTurnOptions, TurnResult, TurnStatus } from './agent-core-options.js';
import type { CoreServices } from './core-services.js';
import type { CallRuntime } from './lifecycle/call-context.js';
import { runToolCalls } from './lifecycle/run-tool-calls.js';
import { recoverSession } from './recovery.js';

async function requestModel(
  services: CoreServices,
  messages: readonly ModelMessage[],
  tools: RequestTools['tools'],
  requestId: string,
  options: RunTurnOptions,
  signal: AbortSignal,
): Promise<ModelResponse> {
  let text = '';
  const toolCalls: ModelToolCall[] = [];
  let usage: ModelResponse['usage'];
  let finishReason: ModelResponse['finishReason'] = 'stop';
  const stream = services.provider.stream({
    requestId,
    messages,
    tools,
    signal,
    ...(services.systemPrompt ? { system: services.systemPrompt } : {}),
  });
  for await (const event of stream) {
    if (event.type === 'text-delta') {
      text += event.text;
      options.onTextDelta?.(event.text);
    } else if (event.type === 'tool-call') toolCalls.push(event.toolCall);
    else if (event.type === 'usage') usage = event.usage;
    else if (event.type === 'finish') finishReason = event.reason;
  }
  return { text, toolCalls, finishReason, ...(usage ? { usage } : {}) };
}

function describeFailure(error: unknown): { code: string; message: string; retryable: boolean } {
  if (ClawsmithError.isInstance(error)) return { code: error.code, message: error.message, retryable: error.retryable };
  if (error instanceof Error && error.name === 'AbortError')
    return { code: 'cancelled', message: 'The turn was cancelled.', retryable: false };
  return { code: 'provider_failed', message: error instanceof Error ? error.message : String(error), retryable: false };
}

/**
 * One turn: open a restore point, send the conversation to the model, run its tool calls, and
 * repeat until the model answers without tool calls, the turn is cancelled, or the step limit.
 * Every assistant tool call gets exactly one tool result, in call order.
 */
export async function runTurn(services: CoreServices, options: RunTurnOptions): Promise<TurnResult> {
  const { store } = services;
  const session = await store.requireSession(options.sessionId);
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
    await recoverSession(services, session.id);
    const turnId = randomUUID();
    const activation = await services.activationFor(session.id);
    const todos = await store.getTodos(session.id);
    const checkpoint = await services.checkpoints.beginTurn({
      sessionId: session.id,
      turnId,
      workspaceRoot: session.workspaceRoot,
      messageCount: await store.countMessages(session.id),
      eventSequence: await store.lastSequence(session.id),
      todoSnapshot: { todos, activation: activation.activeTools() },
    });
    await store.startTurn({
      sessionId: session.id,
      turnId,
      prompt: options.prompt,
      activation: activation.activeTools(),
      startedAt: new Date().toISOString(),
    });
    await store.setTitle(session.id, options.prompt.replace(/\s+/g, ' ').slice(0, 80));
    await store.appendEvent(session.id, {
      type: 'turn.started',
      turnId,
      prompt: options.prompt,
      restorePointId: checkpoint.restorePointId,
    });
    await store.appendMessages(session.id, turnId, [{ role: 'user', text: options.prompt }]);
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
      seenCalls: new Set(),
    };

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
