import type { BackgroundNotifiedEvent } from '@clawsmith/session-protocol';
import type { ArtifactStore } from '@clawsmith/artifacts';
import type { CheckpointStore } from '@clawsmith/checkpoints';
import type { DeferredToolCatalog, RequestTools, SessionActivation } from '@clawsmith/deferred-tools';
import type { Provider } from '@clawsmith/providers';
import type { TraceContextSource } from '@clawsmith/tool-protocol';
import type { ContextWindow } from './context/context-window.js';
import type { TokenEstimator } from './context/token-estimator.js';
import type { ToolTable } from '@clawsmith/tool-host';
import type { PermissionSettings } from './permissions/turn-permissions.js';
import type { ClaimOwner } from './store/session-claims.js';
import type { SessionStore } from './store/session-store.js';
import type { TurnLeaseSettings } from './turn-claims/session-claim.js';
import type { TurnHooks } from './turn-hooks.js';

/** Everything one AgentCore composed, shared by the turn loop, recovery and restore. */
export interface CoreServices {
  readonly store: SessionStore;
  readonly checkpoints: CheckpointStore;
  readonly artifacts?: ArtifactStore;
  readonly provider: Provider;
  /** The home folder, which no session's workspace may contain. */
  readonly homeFolder?: string;
  readonly table: ToolTable;
  readonly catalog: DeferredToolCatalog;
  activationFor(sessionId: string): Promise<SessionActivation>;
  /** The schemas and evidence of a request for this activation (cached: the table is frozen). */
  requestTools(activation: SessionActivation): RequestTools;
  /** Mode, rules, hooks and the approval handler every turn of this core is judged by. */
  readonly permissions: PermissionSettings;
  /** Tools a person allowed for the rest of a session (kept in memory, per session). */
  sessionAllowances(sessionId: string): Set<string>;
  readonly maxSteps: number;
  /** The model's context window, the request-size estimator and the token budgets. */
  readonly context: ContextSettings;
  readonly inlineContentLimit: number;
  readonly cancelGraceMs: number;
  readonly systemPrompt?: string;
  /** Hooks around each turn (prompt submitted, stopping). */
  readonly turnHooks?: TurnHooks;
  /**
   * Sessions this core started (their SessionStart hooks ran), with the hooks that started them:
   * their SessionEnd hooks run when the core closes.
   */
  readonly startedSessions: Map<string, { readonly workspaceRoot: string; readonly hooks: TurnHooks }>;
  /** Tells the person what a hook that cannot block failed or said (SessionEnd, Notification, a blocked compaction). */
  readonly hookNotice?: (notice: string) => void;
  /** Sessions with a turn running in this core (recovery leaves them alone). */
  readonly runningSessions: Set<string>;
  /** This core's identity in session claims (host, boot, pid, a random instance id). */
  readonly owner: ClaimOwner;
  /** How long a claim lasts unrenewed, and how often a running turn renews it. */
  readonly lease: TurnLeaseSettings;
  /** With delegation on: closes a session's children that a dead process left running, and hands over finished background results once. */
  readonly subagents?: SubagentHooks;
  /** The trace context of a call, when calls are traced. */
  readonly traceContext?: TraceContextSource;
}

/** What the turn loop and recovery ask of delegation. */
export interface SubagentHooks {
  /** Closes children of `sessionId` left running by a process that is gone (`interrupted`). */
  recoverChildren(sessionId: string): Promise<void>;
  /** Finished background results not delivered yet, now marked delivered. */
  takeNotice(sessionId: string): Promise<{ text: string; results: BackgroundNotifiedEvent['tasks'] } | undefined>;
}

/** What core knows about the model's context and the token budgets. */
export interface ContextSettings {
  readonly window: ContextWindow;
  readonly estimator: TokenEstimator;
  /** Input plus output tokens one turn may use. */
  readonly maxTurnTokens?: number;
  /** Input plus output tokens a session may use over all its turns. */
  readonly maxSessionTokens?: number;
}
