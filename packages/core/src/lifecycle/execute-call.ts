import {
  headAndTail,
  normalizeToolResult,
  resultMetadata,
  toModelToolSchema,
  toolCancelled,
  toolResultFromError,
  type AnyToolDefinition,
  type ToolExecutionResult,
} from '@clawsmith/tool-protocol';
import type { NewSessionEvent } from '../store/session-records.js';
import { excludedPaths } from '../permissions/permission-policy.js';
import { requestPaths } from '../permissions/request-paths.js';
import { hookInput, runResultHooks } from '../permissions/hooks.js';
import type { CallOutcome, TurnContext } from './turn-context.js';
import { callProgress } from './call-progress.js';
import type { ReadyCall } from './prepare-call.js';

const schemaHashes = new WeakMap<object, string | undefined>();

// Generating JSON Schema from zod is the costliest step of a call; a tool's schema never changes.
function schemaHashOf(tool: AnyToolDefinition): string | undefined {
  if (schemaHashes.has(tool)) return schemaHashes.get(tool);
  let hash: string | undefined;
  try {
    hash = toModelToolSchema(tool).schemaSha256;
  } catch {
    hash = undefined;
  }
  schemaHashes.set(tool, hash);
  return hash;
}

/** The `tool.started` event: written only after validation, hooks and permission passed. */
export function startedEvent(turn: TurnContext, ready: ReadyCall): NewSessionEvent {
  const security = ready.entry.security;
  const toolSchemaSha256 = schemaHashOf(ready.entry.tool);
  return {
    type: 'tool.started',
    turnId: turn.turnId,
    toolCallId: ready.call.id,
    toolName: ready.call.name,
    summary: ready.summary,
    risk: security.risk,
    capabilities: security.capabilities,
    sideEffect: security.sideEffect,
    ...(toolSchemaSha256 ? { toolSchemaSha256 } : {}),
  };
}

async function keepInlineBounded(
  turn: TurnContext,
  callId: string,
  result: ToolExecutionResult,
): Promise<ToolExecutionResult> {
  if (Buffer.byteLength(result.content, 'utf8') <= turn.core.inlineContentLimit) return result;
  if (result.artifact) {
    // The tool already stored its complete output (a command log, say): keep that reference
    // and only bound the inline text, rather than storing a copy of the tool's own preview.
    const preview = headAndTail(result.content, turn.core.inlineContentLimit - 200);
    return {
      ...result,
      content: `${preview}\n[Inline output cut to ${turn.core.inlineContentLimit} bytes; the complete output is artifact ${result.artifact.id}: read it with read_artifact.]`,
    };
  }
  if (turn.core.artifacts) {
    const stored = await turn.core.artifacts.externalize(result.content, {
      sessionId: turn.session.id,
      toolCallId: callId,
      threshold: turn.core.inlineContentLimit,
    });
    return { ...result, content: stored.content, ...(stored.artifact ? { artifact: stored.artifact } : {}) };
  }
  const preview = headAndTail(result.content, turn.core.inlineContentLimit);
  return {
    ...result,
    content: `${preview}\n[The output was ${result.content.length} characters; no artifact store is configured, so the middle is gone.]`,
  };
}

class ToolIgnoredCancellation extends Error {}

/**
 * Waits for the tool; once the turn is cancelled, waits at most `graceMs` more, so a tool that
 * ignores its abort signal cannot hold the turn open.
 */
function settleOrGiveUp(
  running: Promise<unknown>,
  signal: AbortSignal,
  graceMs: number,
  toolName: string,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const giveUp = () => {
      timer = setTimeout(
        () =>
          reject(
            new ToolIgnoredCancellation(
              `${toolName} did not stop within ${graceMs} ms of the cancellation and may still be running; check its effects before relying on them.`,
            ),
          ),
        graceMs,
      );
    };
    if (signal.aborted) giveUp();
    else signal.addEventListener('abort', giveUp, { once: true });
    running.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal.removeEventListener('abort', giveUp);
    });
  });
}

/** The result with what hooks said for the model: contexts from before the call, then result hooks' feedback. */
async function withHookFeedback(
  turn: TurnContext,
  ready: ReadyCall,
  result: ToolExecutionResult,
  contexts: readonly string[],
): Promise<ToolExecutionResult> {
  const resultHooks = turn.permissions.resultHooks ?? [];
  const notes = [...contexts];
  if (resultHooks.length > 0) {
    const call = hookInput(
      {
        toolName: ready.call.name,
        input: ready.input,
        summary: ready.summary,
        sessionId: turn.session.id,
        turnId: turn.turnId,
        toolCallId: ready.call.id,
      },
      ready.entry.security,
    );
    notes.push(...(await runResultHooks(resultHooks, { ...call, status: result.status, content: result.content })));
  }
  if (notes.length === 0) return result;
  return { ...result, content: `${result.content}\n\n${notes.map((note) => `[hook] ${note}`).join('\n')}` };
}

/**
 * Runs an authorised call: the tool gets `authorized: true`, the turn's recorder and the turn's
 * abort signal; its return value is normalised and large content externalised. Never throws.
 */
export async function executeCall(
  turn: TurnContext,
  ready: ReadyCall,
  contexts: readonly string[] = [],
): Promise<ToolExecutionResult> {
  if (turn.signal.aborted) return toolCancelled();
  const progress = callProgress({
    turnId: turn.turnId,
    toolCallId: ready.call.id,
    toolName: ready.call.name,
    write: (event) => turn.core.store.appendEvent(turn.session.id, event),
  });
  let result: ToolExecutionResult;
  try {
    const excluded = excludedPaths(
      turn.permissions.rules,
      {
        toolName: ready.call.name,
        input: ready.input,
        security: ready.entry.security,
        paths: ready.paths ?? requestPaths(ready.entry.tool.pathArguments, ready.input, turn.session.workspaceRoot),
      },
      turn.permissions.mode,
    );
    const traceContext = turn.core.traceContext?.({
      sessionId: turn.session.id,
      turnId: turn.turnId,
      toolCallId: ready.call.id,
    });
    const running = ready.entry.tool.execute(ready.input, {
      authorized: true,
      workspaceRoot: turn.session.workspaceRoot,
      sessionId: turn.session.id,
      turnId: turn.turnId,
      toolCallId: ready.call.id,
      signal: turn.signal,
      reportProgress: progress.report,
      fileChanges: turn.checkpoint.recorder,
      ...(excluded.length > 0 ? { excludedPaths: excluded } : {}),
      ...(traceContext ? { traceContext } : {}),
      ...(turn.core.artifacts
        ? { artifacts: turn.core.artifacts.writerFor({ sessionId: turn.session.id, toolCallId: ready.call.id }) }
        : {}),
    });
    const value = await settleOrGiveUp(Promise.resolve(running), turn.signal, turn.core.cancelGraceMs, ready.call.name);
    result = normalizeToolResult(value);
  } catch (error) {
    result =
      error instanceof ToolIgnoredCancellation ? toolCancelled(error.message) : toolResultFromError(error, turn.signal);
  }
  // Before tool.completed is written: no progress event may follow the call's final state.
  await progress.finish();
  result = await withHookFeedback(turn, ready, result, contexts);
  try {
    return await keepInlineBounded(turn, ready.call.id, result);
  } catch {
    const preview = headAndTail(result.content, turn.core.inlineContentLimit);
    return {
      ...result,
      content: `${preview}\n[The artifact store failed to keep the full output; only this preview remains.]`,
    };
  }
}

/** The `tool.completed` event: the result metadata, and the older top-level `status`, `output`, `artifact`. */
export function completedEvent(turn: TurnContext, outcome: CallOutcome): NewSessionEvent {
  const metadata = resultMetadata(outcome.result);
  return {
    type: 'tool.completed',
    turnId: turn.turnId,
    toolCallId: outcome.call.id,
    toolName: outcome.call.name,
    result: metadata,
    status: metadata.status,
    output: outcome.result.content,
    ...(metadata.artifact ? { artifact: metadata.artifact } : {}),
  };
}
