import type { TurnCheckpoint } from '@clawsmith/checkpoints';
import type { SessionActivation } from '@clawsmith/deferred-tools';
import type { ModelToolCall } from '@clawsmith/providers';
import type { ToolExecutionResult } from '@clawsmith/tool-protocol';
import type { CoreServices } from '../core-services.js';
import type { TurnPermissions } from '../permissions/turn-permissions.js';
import type { TurnHooks } from '../turn-hooks.js';
import type { HeldSession } from '../turn-claims/session-claim.js';

/**
 * One turn as its tool calls see it, built once by `openTurn` for a model turn and a direct call
 * alike. Every step of a call's lifecycle takes `(turn, call)`.
 */
export interface TurnContext {
  /** The composed core: store, tool table, deferred catalog, artifacts and limits. */
  readonly core: CoreServices;
  readonly session: { readonly id: string; readonly workspaceRoot: string };
  readonly turnId: string;
  /** Cancels the turn: the model request and every tool see it. */
  readonly signal: AbortSignal;
  /** The turn's restore point; its recorder keeps every file change the tools make. */
  readonly checkpoint: TurnCheckpoint;
  /** The deferred tools this session activated (`search_tools` adds to it during the turn). */
  readonly activation: SessionActivation;
  /** Mode, rules, hooks, who is asked, and what a person already allowed in this session. */
  readonly permissions: TurnPermissions;
  /** Hooks around this turn and its session (the core's). */
  readonly turnHooks?: TurnHooks;
  /** Tool call ids already used this turn (a reused id is a `duplicate_call`). */
  readonly seenCallIds: Set<string>;
  /** The session's claim this turn runs under; closing the turn ends it. */
  readonly held: HeldSession;
}

/** One call's outcome, in the shape persisted in the message and the event. */
export interface CallOutcome {
  readonly call: ModelToolCall;
  readonly result: ToolExecutionResult;
}
