import { randomUUID } from 'node:crypto';
import { SessionActivation } from '@clawsmith/deferred-tools';
import type { ModelToolCall } from '@clawsmith/providers';
import {
  ClawsmithError,
  resultMetadata,
  type ModelToolSchema,
  type ResolvedToolSecurity,
  type ToolExecutionResult,
} from '@clawsmith/tool-protocol';
import type { TurnResult } from './agent-core-options.js';
import type { CoreServices } from './core-services.js';
import type { ApprovalHandler, CallRuntime } from './lifecycle/call-context.js';
import { runToolCalls } from './lifecycle/run-tool-calls.js';
import { openTurn } from './turn-opening.js';

/** One tool call made directly, without a model (an MCP client, a script). */
export interface DirectToolCall {
  readonly sessionId: string;
  /** The tool's name, as in the table. */
  readonly name: string;
  /** The arguments: a JSON value (normally an object), validated against the tool's schema. */
  readonly arguments: unknown;
  /** Cancels the call: the tool sees it, the call closes `cancelled`. */
  readonly signal?: AbortSignal;
  /** Who asked, for the turn's prompt and the transcript (for example `MCP client claude-ai`). */
  readonly caller?: string;
  /**
   * Asks a person for this call instead of the core's handler; `null` means nobody can be asked,
   * and an `ask` is denied with `unattendedReason`.
   */
  readonly approvalHandler?: ApprovalHandler | null;
  /** Why an `ask` is denied when nobody can be asked (the end of the denial message). */
  readonly unattendedReason?: string;
}

/** What a direct call returns: its result and the restore point that holds its file changes. */
export interface DirectToolCallResult {
  readonly sessionId: string;
  readonly turnId: string;
  readonly restorePointId: string;
  readonly result: ToolExecutionResult;
  /** Files the call changed, with stats (empty for a read). */
  readonly changedFiles: TurnResult['changedFiles'];
  /** The deferred tools active in the session after the call (`search_tools` adds to them). */
  readonly activeTools: readonly string[];
}

/** A tool as a client outside the model loop sees it: its schema and its resolved security. */
export interface ToolDescription {
  readonly name: string;
  readonly description: string;
  /** The JSON Schema a caller writes arguments against (as sent to models). */
  readonly inputSchema: ModelToolSchema['inputSchema'];
  readonly security: ResolvedToolSecurity;
  readonly concurrencySafe: boolean;
  /** Whether the tool waits for `search_tools` before it can be called. */
  readonly deferred: boolean;
}

/**
 * The tools a session can call now (`visible`: always-sent tools, `search_tools`, and deferred
 * tools this session activated) or every tool in the table (`all`, as if every deferred tool
 * were active), in table order.
 */
export async function describeTools(
  services: CoreServices,
  sessionId: string,
  which: 'visible' | 'all',
): Promise<ToolDescription[]> {
  await services.store.requireSession(sessionId);
  const activation =
    which === 'visible'
      ? await services.activationFor(sessionId)
      : new SessionActivation(services.catalog.deferredTools);
  return services.requestTools(activation).tools.flatMap((schema) => {
    const entry = services.table.get(schema.name);
    if (!entry) return [];
    return [
      {
        name: schema.name,
        description: schema.description,
        inputSchema: schema.inputSchema,
        security: entry.security,
        concurrencySafe: entry.tool.concurrencySafe === true,
        deferred: services.catalog.isDeferred(schema.name),
      },
    ];
  });
}

/**
 * Runs one call through the whole lifecycle (gate, validation, hooks, permissions, approval,
 * execution, result normalisation, events) as a turn of its own: one restore point per call.
 * Never throws for anything the call does; throws `turn_in_progress` when a turn runs in the
 * session (callers serialise their calls) and `session_not_found`.
 */
export async function runDirectCall(services: CoreServices, request: DirectToolCall): Promise<DirectToolCallResult> {
  const { store } = services;
  const session = await store.requireSession(request.sessionId);
  if (services.runningSessions.has(session.id))
    throw new ClawsmithError(
      'turn_in_progress',
      `A turn or call is already running in session ${session.id}; wait for it or cancel it first.`,
    );
  services.runningSessions.add(session.id);
  try {
    const prompt = `${request.caller ?? 'direct call'}: ${request.name}`;
    const { turnId, activation, checkpoint } = await openTurn(services, session, prompt);
    const call: ModelToolCall = {
      id: `call_${randomUUID()}`,
      name: request.name,
      argumentsText: JSON.stringify(request.arguments ?? {}),
    };
    await store.appendEvent(session.id, {
      type: 'turn.started',
      turnId,
      prompt,
      restorePointId: checkpoint.restorePointId,
    });
    await store.appendMessages(session.id, turnId, [
      { role: 'user', text: prompt },
      { role: 'assistant', text: '', toolCalls: [call] },
    ]);
    const signal = request.signal ?? new AbortController().signal;
    const approvalHandler =
      request.approvalHandler === null ? undefined : (request.approvalHandler ?? services.approvalHandler);
    const runtime: CallRuntime = {
      table: services.table,
      gate: (name) => services.catalog.gate(name, activation),
      store,
      sessionId: session.id,
      turnId,
      workspaceRoot: session.workspaceRoot,
      signal,
      permissionMode: services.permissionMode,
      rules: services.rules,
      hooks: services.hooks,
      ...(approvalHandler ? { approvalHandler } : {}),
      ...(request.unattendedReason ? { unattendedReason: request.unattendedReason } : {}),
      sessionAllowances: services.sessionAllowances(session.id),
      recorder: checkpoint.recorder,
      ...(services.artifacts ? { artifacts: services.artifacts } : {}),
      inlineContentLimit: services.inlineContentLimit,
      cancelGraceMs: services.cancelGraceMs,
      seenCallIds: new Set(),
    };
    const [outcome] = await runToolCalls(runtime, [call]);
    const result = outcome!.result;
    await store.appendMessages(session.id, turnId, [
      {
        role: 'tool',
        toolCallId: call.id,
        toolName: call.name,
        content: result.content,
        toolResult: resultMetadata(result),
      },
    ]);
    await store.setActivation(session.id, activation.activeTools());
    const manifest = await checkpoint.complete();
    const changedFiles = manifest.files.map((file) => ({
      path: file.path,
      change: file.change,
      linesAdded: file.linesAdded ?? 0,
      linesRemoved: file.linesRemoved ?? 0,
    }));
    const status = result.status === 'cancelled' ? 'cancelled' : 'completed';
    await store.completeTurn(session.id, turnId, status);
    await store.appendEvent(session.id, {
      type: 'turn.completed',
      turnId,
      status,
      steps: 0,
      restorePointId: checkpoint.restorePointId,
      manifest: {
        files: changedFiles.length,
        linesAdded: manifest.totals.linesAdded,
        linesRemoved: manifest.totals.linesRemoved,
        paths: changedFiles.map((file) => file.path),
      },
    });
    return {
      sessionId: session.id,
      turnId,
      restorePointId: checkpoint.restorePointId,
      result,
      changedFiles,
      activeTools: activation.activeTools(),
    };
  } finally {
    services.runningSessions.delete(session.id);
  }
}
