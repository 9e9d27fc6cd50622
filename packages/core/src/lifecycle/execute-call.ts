import { executeJudgedCall } from '@clawsmith/tool-host';
import {
  resultMetadata,
  toModelToolSchema,
  toolCancelled,
  type AnyToolDefinition,
  type ToolExecutionResult,
} from '@clawsmith/tool-protocol';
import type { NewSessionEvent } from '../store/session-records.js';
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

/**
 * Runs an authorised call through the tool host (the tool gets `authorized: true`, the turn's
 * recorder and abort signal; its return value is normalised, result hooks add their feedback,
 * large content goes to the artifact store), with the call's progress events. Never throws.
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
  const traceContext = turn.core.traceContext?.({
    sessionId: turn.session.id,
    turnId: turn.turnId,
    toolCallId: ready.call.id,
  });
  return executeJudgedCall({
    tool: ready.entry.tool,
    security: ready.entry.security,
    input: ready.input,
    summary: ready.summary,
    ...(ready.paths ? { paths: ready.paths } : {}),
    ...(ready.facts ? { facts: ready.facts } : {}),
    contexts,
    sessionId: turn.session.id,
    turnId: turn.turnId,
    toolCallId: ready.call.id,
    workspaceRoot: turn.session.workspaceRoot,
    signal: turn.signal,
    mode: turn.permissions.mode,
    rules: turn.permissions.rules,
    ...(turn.permissions.resultHooks ? { resultHooks: turn.permissions.resultHooks } : {}),
    fileChanges: turn.checkpoint.recorder,
    ...(turn.core.artifacts ? { artifacts: turn.core.artifacts } : {}),
    readArtifactTool: turn.core.table.get('read_artifact') !== undefined,
    inlineContentLimit: turn.core.inlineContentLimit,
    cancelGraceMs: turn.core.cancelGraceMs,
    reportProgress: progress.report,
    ...(traceContext ? { traceContext } : {}),
    // Before tool.completed is written: no progress event may follow the call's final state.
    afterSettled: () => progress.finish(),
  });
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
