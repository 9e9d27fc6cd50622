import { randomUUID } from 'node:crypto';
import { SessionActivation } from '@clawsmith/deferred-tools';
import { eitherSignal } from '@clawsmith/platform';
import type { ModelToolCall } from '@clawsmith/providers';
import { type ModelToolSchema, type ResolvedToolSecurity, type ToolExecutionResult } from '@clawsmith/tool-protocol';
import type { TurnResult } from './agent-core-options.js';
import type { CoreServices } from './core-services.js';
import { runToolCalls } from './lifecycle/run-tool-calls.js';
import type { ApprovalHandler } from '@clawsmith/tool-host';
import { closeTurn, recordToolResults } from './turn-closing.js';
import { openTurn } from './turn-opening.js';
import { claimSession, whileHeld } from './turn-claims/session-claim.js';

/** One tool call made directly, without a model (an MCP client, a script). */
export interface DirectToolCall {
  /** The session the call belongs to (its workspace, mode and record). */
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
  /** The session the call was recorded in. */
  readonly sessionId: string;
  /** The turn opened for this one call (each direct call is its own turn). */
  readonly turnId: string;
  /** The call's restore point: undo takes the workspace back to before it. */
  readonly restorePointId: string;
  /** The normalised result, as the model would have received it. */
  readonly result: ToolExecutionResult;
  /** Files the call changed, with stats (empty for a read). */
  readonly changedFiles: TurnResult['changedFiles'];
  /** The deferred tools active in the session after the call (`search_tools` adds to them). */
  readonly activeTools: readonly string[];
}

/** A tool as a client outside the model loop sees it: its schema and its resolved security. */
export interface ToolDescription {
  /** The name to call it by. */
  readonly name: string;
  /** What it does, as sent to models. */
  readonly description: string;
  /** The JSON Schema a caller writes arguments against (as sent to models). */
  readonly inputSchema: ModelToolSchema['inputSchema'];
  /** Its effective risk and capabilities (declared risk raised to the capability floor). */
  readonly security: ResolvedToolSecurity;
  /** Whether it may run in parallel with other read-only calls. */
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
  core: CoreServices,
  sessionId: string,
  which: 'visible' | 'all',
): Promise<ToolDescription[]> {
  await core.store.requireSession(sessionId);
  const activation =
    which === 'visible' ? await core.activationFor(sessionId) : new SessionActivation(core.catalog.deferredTools);
  return core.requestTools(activation).tools.flatMap((schema) => {
    const entry = core.table.get(schema.name);
    if (!entry) return [];
    return [
      {
        name: schema.name,
        description: schema.description,
        inputSchema: schema.inputSchema,
        security: entry.security,
        concurrencySafe: entry.tool.concurrencySafe === true,
        deferred: core.catalog.isDeferred(schema.name),
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
export async function runDirectCall(core: CoreServices, request: DirectToolCall): Promise<DirectToolCallResult> {
  const session = await core.store.requireSession(request.sessionId);
  const held = await claimSession(
    core,
    session.id,
    `A turn or call is already running in session ${session.id}; wait for it or cancel it first.`,
  );
  const cancel = request.signal ? eitherSignal(request.signal, held.lost) : undefined;
  return whileHeld(held, async () => {
    const prompt = `${request.caller ?? 'direct call'}: ${request.name}`;
    const call: ModelToolCall = {
      id: `call_${randomUUID()}`,
      name: request.name,
      argumentsText: JSON.stringify(request.arguments ?? {}),
    };
    const turn = await openTurn(core, session, prompt, {
      signal: cancel?.signal ?? held.lost,
      held,
      ...(request.approvalHandler !== undefined ? { approvalHandler: request.approvalHandler } : {}),
      ...(request.unattendedReason ? { unattendedReason: request.unattendedReason } : {}),
      firstStep: ({ turnId, restorePointId }) => ({
        events: [{ type: 'turn.started', turnId, prompt, restorePointId }],
        messages: [
          { role: 'user', text: prompt },
          { role: 'assistant', text: '', toolCalls: [call] },
        ],
      }),
    });
    const run = await runToolCalls(turn, [call]);
    await recordToolResults(turn, [], run);
    const result = run.outcomes[0]!.result;
    const changedFiles = await closeTurn(turn, {
      status: result.status === 'cancelled' ? 'cancelled' : 'completed',
      steps: 0,
    });
    return {
      sessionId: session.id,
      turnId: turn.turnId,
      restorePointId: turn.checkpoint.restorePointId,
      result,
      changedFiles,
      activeTools: turn.activation.activeTools(),
    };
  }).finally(() => cancel?.release());
}
