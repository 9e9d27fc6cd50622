import type { ArtifactStore } from '@clawsmith/artifacts';
import type { CheckpointStore } from '@clawsmith/checkpoints';
import type {
  AnyToolDefinition,
  ModelToolSchema,
  ResolvedToolSecurity,
  ToolExecutionResult,
  ToolProgress,
} from '@clawsmith/tool-protocol';
import type { ApprovalHandler } from '../permissions/approval-handler.js';
import type { CallTouches, ToolHook, ToolResultHook } from '../permissions/hooks.js';
import type { PermissionAction, PermissionMode, PermissionRule } from '../permissions/permission-policy.js';

/** What {@link createToolHost} composes: tools, stores and the permission settings. */
export interface ToolHostOptions {
  /** Absolute path of the workspace the tools work in. */
  readonly workspaceRoot: string;
  /** The tools, in table order; a duplicate name is a startup error naming both. */
  readonly tools: readonly AnyToolDefinition[];
  /** Where restore points are kept; every file change is recorded there before it lands. */
  readonly checkpoints: CheckpointStore;
  /** Where large output goes; with it the host registers `read_artifact` (unless `readArtifactTool: false`). */
  readonly artifacts?: ArtifactStore;
  /** Whether to register `read_artifact` when there is an artifact store; default true. */
  readonly readArtifactTool?: boolean;
  /** The session the restore points and artifacts belong to; default a new random id. */
  readonly sessionId?: string;
  /** Default `default`: reads allowed, writes and commands ask. */
  readonly permissionMode?: PermissionMode;
  readonly rules?: readonly PermissionRule[];
  readonly hooks?: readonly ToolHook[];
  readonly resultHooks?: readonly ToolResultHook[];
  /**
   * Asks a person when `call()` meets an `ask` the caller did not approve beforehand. Without
   * one, such a call is denied (`permission_denied`) with the reason.
   */
  readonly approvalHandler?: ApprovalHandler;
  /** UTF-8 bytes of content kept inline; default 50,000 (beyond it an artifact and a preview). */
  readonly inlineContentLimit?: number;
  /** How long a cancelled tool that ignores its signal is waited for; default 2,000 ms. */
  readonly cancelGraceMs?: number;
}

/** A tool as a caller outside a model loop sees it. */
export interface HostToolDescription {
  readonly name: string;
  readonly description: string;
  /** The model-facing JSON Schema of the arguments (zod's input side). */
  readonly inputSchema: ModelToolSchema['inputSchema'];
  /** The tool's own definition, with its zod schema (`tool.inputSchema`). */
  readonly tool: AnyToolDefinition;
  readonly security: ResolvedToolSecurity;
  readonly concurrencySafe: boolean;
}

/** The host's decision on a call before it runs (see `ToolHost.decide`). */
export interface HostDecision {
  /** `allow`: it runs; `ask`: a person must approve; `deny`: it will not run. */
  readonly action: PermissionAction;
  readonly reason: string;
  /** With `deny`: the result code the call would close with (`permission_denied`, `unknown_tool`, ...). */
  readonly code?: string;
  /** With `deny`: the result the call would close with. */
  readonly result?: ToolExecutionResult;
  /** What was judged: the paths, simple commands and URL host the call touches, resolved once (absent when validation or a hook refused it first). */
  readonly touches?: CallTouches;
}

/** Options of `ToolHost.decide`. */
export interface HostDecideOptions {
  /**
   * The id of the tool call being decided (a framework's tool call id): only the `call()` with the
   * same id reuses the judgment, so a judgment for a call that never ran is never taken by another.
   */
  readonly toolCallId?: string;
}

/** Options of one `ToolHost.call`. */
export interface HostCallOptions {
  /** The call's id (a framework's tool call id); default a new random id. */
  readonly toolCallId?: string;
  /** Cancels the call: the tool sees it and the call closes `cancelled`. */
  readonly signal?: AbortSignal;
  /** A person already approved this call (the framework's approval): an `ask` runs; a `deny` still denies. */
  readonly approved?: boolean;
  /** Progress the tool reports while it runs. */
  readonly onProgress?: (progress: ToolProgress) => void;
}
