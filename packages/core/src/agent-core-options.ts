import type { DatabaseHandle } from '@clawsmith/platform';
import type { ArtifactStore } from '@clawsmith/artifacts';
import type { CheckpointStore } from '@clawsmith/checkpoints';
import type { CommandExecutionService } from '@clawsmith/command-sandbox';
import type { Provider } from '@clawsmith/providers';
import type { AnyToolDefinition, TraceContextSource } from '@clawsmith/tool-protocol';
import type { ApprovalHandler } from '@clawsmith/tool-host';
import type { ToolSource } from '@clawsmith/tool-host';
import type { ToolHook, ToolResultHook } from '@clawsmith/tool-host';
import type { PermissionMode, PermissionRule } from '@clawsmith/tool-host';
import type { ApprovalBroker } from './permissions/approval-broker.js';
import type { DelegationOptions } from './subagents/delegation-options.js';
import type { RetentionScheduleOptions } from './retention/retention-schedule.js';
import type { TurnHooks } from './turn-hooks.js';

/** Options of {@link createAgentCore}. */
export interface AgentCoreOptions {
  /** The embedded database, migrated (see `openClawsmithHome`). */
  readonly db: DatabaseHandle;
  /** The model. */
  readonly provider: Provider;
  /**
   * The clawsmith home folder: a session whose workspace contains it is refused
   * (`home_inside_workspace`) at creation and at every turn.
   */
  readonly homeFolder?: string;
  /** The checkpoint store that makes file changes undoable. */
  readonly checkpoints: CheckpointStore;
  /** Where large tool output goes; adds `read_artifact`. */
  readonly artifacts?: ArtifactStore;
  /** Background commands; adds the eight background command tools. */
  readonly commands?: CommandExecutionService;
  /** The base tools, usually `createBuiltinTools(...)`. */
  readonly builtinTools: readonly AnyToolDefinition[];
  /** Extension tools (MCP, LSP, plugins), each group with its source name; deferred ones wait for `search_tools`. */
  readonly extensions?: readonly ToolSource[];
  /** Deferred tools that should be sent with every request anyway. */
  readonly alwaysLoadedTools?: readonly string[];
  /** Default `default`. */
  readonly permissionMode?: PermissionMode;
  /** Permission rules on resolved paths, parsed commands and domains; a matching `deny` wins, then `ask`, then `allow`. */
  readonly rules?: readonly PermissionRule[];
  /** Hooks asked before each call; one that denies, crashes or times out denies the call (fails closed). */
  readonly hooks?: readonly ToolHook[];
  /** Hooks that run after each call completed (formatters); their feedback is added to the result. */
  readonly resultHooks?: readonly ToolResultHook[];
  /** Hooks around each turn: before the prompt reaches the model, and when the model stops. */
  readonly turnHooks?: TurnHooks;
  /**
   * Tells the person what a hook that cannot block failed or said: a SessionEnd or Notification
   * hook that failed, a PreCompact hook that kept the view uncompacted, a SessionStart hook that
   * exited 2. Without it these are not shown anywhere (the turn's own outcome never depends on them).
   */
  readonly onHookNotice?: (notice: string) => void;
  /** Asks a person; without one (and without `approvals`), every `ask` is denied. */
  readonly approvalHandler?: ApprovalHandler;
  /**
   * Asks a person who answers from elsewhere (a web page, an editor): each `ask` waits in the
   * broker until an answer comes through `AgentCore.approvals`. Give this or `approvalHandler`,
   * not both (`createAgentCore` throws).
   */
  readonly approvals?: ApprovalBroker;
  /** Model requests per turn before the turn stops with `step_limit`; default 50. */
  readonly maxSteps?: number;
  /**
   * The model's context window in tokens; default `CLAWSMITH_CONTEXT_WINDOW`, then the table of
   * well-known model families, then 32,768. Compaction keeps requests under it.
   */
  readonly contextWindow?: number;
  /** Input plus output tokens one turn may use; a turn that would pass it stops `incomplete` with `token_budget_exceeded`. */
  readonly maxTurnTokens?: number;
  /** Input plus output tokens a session may use over all its turns; same stop as `maxTurnTokens`. */
  readonly maxSessionTokens?: number;
  /** Tool content above this many bytes goes to an artifact; default 50,000. */
  readonly inlineContentLimit?: number;
  /** After a cancellation, how long to wait for a tool that ignores its abort signal; default 2,000 ms. */
  readonly cancelGraceMs?: number;
  /**
   * The lease by which a turn holds its session over every process and machine sharing the home:
   * a claim not renewed for `durationMs` (default 60,000) may be taken over; the running turn
   * renews it every `renewEveryMs` (default 15,000).
   */
  readonly turnLease?: { readonly durationMs?: number; readonly renewEveryMs?: number };
  /**
   * The name of this machine in turn claims (default `CLAWSMITH_HOST_ID`, else the host name).
   * Processes on one machine must agree on it; machines must not share it.
   */
  readonly hostId?: string;
  /** System prompt sent with every request (a turn may give its own); `request.started` records its SHA-256. */
  readonly systemPrompt?: string;
  /** Turns on subagents: `delegate_task`, `delegate_background`, `background_task_list`, `background_task_cancel`. */
  readonly delegation?: DelegationOptions;
  /**
   * Retention after turns (default on, the contract's policy, at most once an hour over every
   * process on the home, sooner when a session went over a quota); `false` turns it off.
   */
  readonly retention?: RetentionScheduleOptions | false;
  /**
   * The trace context of each call, asked once `tool.started` is written and before the tool runs
   * (`@clawsmith/telemetry`'s `traceContextOf`); the tool gets it as `context.traceContext`.
   * Subagents inherit it.
   */
  readonly traceContext?: TraceContextSource;
}

/**
 * How a turn ended: `completed` (the model answered without tool calls), `incomplete` (the
 * model's answer was cut by its token limit: `model_output_truncated`; or the next request
 * would pass a token budget: `token_budget_exceeded`), `failed` (a provider
 * error, or the provider ended the answer itself), `cancelled`, `step_limit`.
 */
export type TurnStatus = 'completed' | 'incomplete' | 'cancelled' | 'failed' | 'step_limit';

/** What a turn returns. */
export interface TurnResult {
  /** The session the turn ran in. */
  readonly sessionId: string;
  /** The turn's id, for `restore` and the event log. */
  readonly turnId: string;
  /** How the turn ended. */
  readonly status: TurnStatus;
  /** The model's last text. */
  readonly text: string;
  /** Model requests made. */
  readonly steps: number;
  /** The restore point that holds what the turn changed (give its turn to `restore` to undo it). */
  readonly restorePointId: string;
  /** Files the turn changed, with stats. */
  readonly changedFiles: readonly { path: string; change: string; linesAdded: number; linesRemoved: number }[];
  /** Why the turn failed, when it did. */
  readonly error?: { readonly code: string; readonly message: string; readonly retryable: boolean };
  /** Tokens of every model request of the turn (compaction's summary requests included), summed. */
  readonly usage?: TurnUsage;
}

/** Tokens summed over requests. */
export interface TurnUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

/** Options of one turn. */
export interface RunTurnOptions {
  /** The session to continue (from `createSession`). */
  readonly sessionId: string;
  /** What the person asks, as the turn's user message. */
  readonly prompt: string;
  /** Cancels the turn: the running tool sees it, later calls are cancelled, the turn closes. */
  readonly signal?: AbortSignal;
  /** Receives the model's text as it streams. */
  readonly onTextDelta?: (text: string) => void;
  /** The system prompt of this turn's requests, instead of the core's `systemPrompt`. */
  readonly systemPrompt?: string;
  /**
   * Rules and hooks of this turn's workspace, in addition to the core's: a host whose sessions
   * live in different workspaces (`clawsmith web`) reads each one's settings files per turn.
   */
  readonly settings?: TurnSettings;
  /**
   * The permission mode this turn's calls are judged by, instead of the core's `permissionMode`
   * (rules, hooks and the approval handler stay the core's). A host with several sessions, each
   * with a mode its person chose, passes it per turn.
   */
  readonly permissionMode?: PermissionMode;
}

/** Rules and hooks one turn is judged by besides the core's (see {@link RunTurnOptions.settings}). */
export interface TurnSettings {
  /** Added to the core's rules (deny beats ask beats allow whatever their source). */
  readonly rules?: readonly PermissionRule[];
  /** Run after the core's hooks. */
  readonly hooks?: readonly ToolHook[];
  /** Run after the core's result hooks. */
  readonly resultHooks?: readonly ToolResultHook[];
  /** Used instead of the core's turn hooks; the session's SessionEnd hooks are the ones it started with. */
  readonly turnHooks?: TurnHooks;
}

/** What `restore` reverts: the conversation, the files, or both. */
export type RestoreScope = 'session' | 'files' | 'all';
