import type {
  JsonValue,
  ResolvedToolSecurity,
  ToolExecutionResult,
  ToolProgress,
  TraceContext,
} from '@clawsmith/tool-protocol';

/**
 * The ports `clawsmith mcp serve` needs from an agent runtime. This package never imports the
 * runtime (a service imports only tool-protocol): the composition root (the `clawsmith` command,
 * with core) implements them, and `createServedMcpServer` speaks MCP over them.
 */

/** A tool as served: its schema and its effective security (annotations derive from it). */
export interface ServedTool {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments (an object schema). */
  readonly inputSchema: { readonly [key: string]: JsonValue };
  /** The resolved profile: effective risk and capabilities, never what the tool only claimed. */
  readonly security: ResolvedToolSecurity;
}

/** What a person is asked before a call runs (core's approval request, seen from here). */
export interface ServedApprovalRequest {
  readonly toolName: string;
  readonly summary: string;
  readonly risk: string;
  readonly capabilities: readonly string[];
  readonly reason: string;
}

/** Asks the person on the other side; a throw denies. */
export type ServedApprover = (
  request: ServedApprovalRequest,
  signal: AbortSignal,
) => Promise<'allow' | 'deny' | 'allow-session'>;

/** Options of one served call. */
export interface ServedCallOptions {
  /** Aborted when the client cancels the request or disconnects. */
  readonly signal: AbortSignal;
  /** Asks the person through the client; null when the client cannot be asked. */
  readonly approver: ServedApprover | null;
  /** Why an `ask` is denied when `approver` is null. */
  readonly unattendedReason: string;
  /**
   * Set when the client asked for progress (a `progressToken`): the runtime calls it with the
   * call's progress as it records it (core: its throttled `tool.progress` events).
   */
  readonly onProgress?: (progress: ToolProgress) => void;
  /** The trace the client's request continues (its `_meta.traceparent`), when it sent a valid one. */
  readonly traceContext?: TraceContext;
}

/** A served call's outcome: the runtime's result and the restore point holding its changes. */
export interface ServedCallOutcome {
  readonly result: ToolExecutionResult;
  /** Opaque id of the call's restore point (one per call). */
  readonly restorePointId: string;
  readonly changedFiles: readonly {
    readonly path: string;
    readonly change: string;
    readonly linesAdded: number;
    readonly linesRemoved: number;
  }[];
  /** The deferred tools active after the call; when it differs from before, the tool list changed. */
  readonly activeTools?: readonly string[];
}

/** One changed path of a restore point. */
export interface ServedFileChange {
  readonly path: string;
  readonly change: string;
  readonly linesAdded: number | null;
  readonly linesRemoved: number | null;
  readonly binary: boolean;
  readonly undoable: boolean;
}

/** A restore point of the session: the changes of one call. */
export interface ServedRestorePoint {
  readonly restorePointId: string;
  /** 1 for the session's first call. */
  readonly sequence: number;
  /** The call that made it (`MCP client x: edit_file`). */
  readonly label: string;
  readonly createdAt: number;
  readonly undone: boolean;
  readonly files: readonly ServedFileChange[];
  /** Changes the recorder could not see (a command run without capture). */
  readonly notes: readonly string[];
}

/** One file's diff (each side and the unified diff at most 64 KiB). */
export interface ServedDiff {
  readonly path: string;
  readonly binary: boolean;
  readonly unifiedDiff: string;
  readonly truncated: boolean;
}

/** What an undo did. Conflicts refuse the whole undo before a byte changes. */
export type ServedUndoOutcome =
  | { readonly status: 'undone'; readonly restoredPaths: readonly string[] }
  | { readonly status: 'already_undone' }
  | {
      readonly status: 'conflict';
      readonly conflicts: readonly { readonly path: string; readonly reason: string }[];
    };

/** An artifact's text, bounded. */
export interface ServedArtifact {
  readonly mediaType: string;
  readonly text: string;
  readonly byteLength: number;
  /** True when only the first part is returned. */
  readonly truncated: boolean;
}

/** One MCP connection's clawsmith session. */
export interface ServedSession {
  readonly sessionId: string;
  /** What can be called now: always-loaded tools, `search_tools`, and deferred tools it activated. */
  tools(): Promise<readonly ServedTool[]>;
  /** Runs one call through the runtime's whole lifecycle. Never throws for what the call does. */
  call(name: string, args: unknown, options: ServedCallOptions): Promise<ServedCallOutcome>;
  /** The session's restore points, oldest first. */
  restorePoints(): Promise<readonly ServedRestorePoint[]>;
  diff(restorePointId: string, path: string): Promise<ServedDiff>;
  /** Undoes the files of a restore point and every later one of this session. */
  undo(restorePointId: string): Promise<ServedUndoOutcome>;
  /** Reads an artifact of this session; throws `artifact_not_found` for another session's. */
  readArtifact(artifactId: string): Promise<ServedArtifact>;
  /** Ends what the session started (background commands). */
  close(): Promise<void>;
}

/** Where served sessions come from: one per MCP connection. */
export interface ServedWorkspace {
  readonly workspaceRoot: string;
  /** The permission mode calls run in (for the instructions the server sends). */
  readonly permissionMode: string;
  openSession(client: { readonly name: string; readonly version: string }): Promise<ServedSession>;
}
