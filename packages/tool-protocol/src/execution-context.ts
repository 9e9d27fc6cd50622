import type { TraceContext } from './trace-context.js';
import type { ArtifactReference } from './artifact-reference.js';
import { UnauthorizedToolError } from './clawsmith-error.js';

/**
 * What a path held before a tool changed it: nothing, a regular file's bytes and mode, a
 * symbolic link's target, or a folder with its mode. File tools change only regular files;
 * commands (through overlay capture) also create and remove links and folders.
 */
export type FilePreimage =
  | { readonly state: 'absent' }
  | { readonly state: 'file'; readonly content: Uint8Array; readonly mode: number }
  /** A file whose bytes the caller did not read (too large to keep): the change is recorded, not undoable. */
  | { readonly state: 'file-not-kept'; readonly sha256: string; readonly mode: number; readonly bytes: number }
  | { readonly state: 'symlink'; readonly target: string }
  | { readonly state: 'directory'; readonly mode: number };

/**
 * What a path holds right after a tool wrote it: nothing, a file with this SHA-256 (hex) and,
 * when the tool set it, mode; a symbolic link with this target; or a folder with this mode.
 */
export type FilePostimage =
  | { readonly state: 'absent' }
  | {
      readonly state: 'file';
      readonly sha256: string;
      readonly mode?: number;
      /**
       * The bytes written, when the tool has them in memory (they must hash to `sha256`): the
       * recorder keeps them for the turn's diff instead of reading the file back, so the diff
       * shows what the tool wrote even if the file changes again before the turn ends.
       */
      readonly content?: Uint8Array;
    }
  | { readonly state: 'symlink'; readonly target: string }
  | { readonly state: 'directory'; readonly mode: number };

/** One path of a batch given to {@link FileChangeRecorder.beforeChanges}. */
export interface RecordedPreimage {
  /** Workspace-relative path with `/` separators. */
  readonly path: string;
  readonly preimage: FilePreimage;
}

/** One path of a batch given to {@link FileChangeRecorder.afterChanges}. */
export interface RecordedPostimage {
  /** Workspace-relative path with `/` separators. */
  readonly path: string;
  readonly postimage: FilePostimage;
}

/**
 * The port through which a tool reports every file it changes, so the change can be undone.
 * Paths are workspace-relative with `/` separators. `checkpoints` implements it;
 * `workspace-fs` and `command-sandbox` call it; neither knows the other.
 *
 * Order of calls for one change: `beforeChange` (must resolve before the first byte is
 * written), the write, then `afterChange` at once. If `beforeChange` throws, the tool must not
 * write: a change that cannot be undone is not made. A recorder keeps only the first pre-image
 * of a path within a turn, so calling it again for the same path is harmless.
 */
export interface FileChangeRecorder {
  /** Records what `path` held before the change. */
  beforeChange(path: string, preimage: FilePreimage): void | Promise<void>;
  /** Records what `path` holds right after the change. */
  afterChange(path: string, postimage: FilePostimage): void | Promise<void>;
  /**
   * The batch form of `beforeChange` (the recorder's `recordChanges` entry point): every
   * pre-image in one transaction, so a command's thousands of changes cost one commit. Optional:
   * callers fall back to `beforeChange` per path.
   */
  beforeChanges?(changes: readonly RecordedPreimage[]): Promise<BatchRecording | void>;
  /** The batch form of `afterChange`, in one transaction. Optional like `beforeChanges`. */
  afterChanges?(changes: readonly RecordedPostimage[]): Promise<void>;
  /**
   * Adds a sentence to the turn's manifest about changes the recorder could not see, for
   * example "changes made by `make` are not recorded (the sandbox is off)". Optional.
   */
  note?(text: string): void | Promise<void>;
}

/** What a batch of pre-images cost the recorder. */
export interface BatchRecording {
  /**
   * Paths whose earlier bytes were not kept (over the recorder's per-turn cap, or not read):
   * their change is recorded but cannot be undone.
   */
  readonly notKept: readonly string[];
}

/** Options for storing one artifact through an {@link ArtifactWriter}. */
export interface ArtifactWriteOptions {
  /** Media type; default `text/plain; charset=utf-8`. */
  readonly mediaType?: string;
}

/** An artifact still being written, for example a running command's log. */
export interface AppendableArtifact {
  /** The reference as of now; `sha256` is absent until {@link AppendableArtifact.close}. */
  reference(): ArtifactReference;
  /** Appends bytes at the end. */
  append(chunk: string | Uint8Array): void | Promise<void>;
  /** Marks the artifact complete and returns its final reference. */
  close(): Promise<ArtifactReference>;
}

/**
 * The port through which a tool stores large text for the current session (and tool call)
 * and gets an {@link ArtifactReference} back. `artifacts` implements it.
 */
export interface ArtifactWriter {
  /** Stores `content` whole and returns its reference. */
  write(content: string | Uint8Array, options?: ArtifactWriteOptions): Promise<ArtifactReference>;
  /** Opens an artifact that grows as output arrives. */
  openAppendable(options?: ArtifactWriteOptions): Promise<AppendableArtifact>;
}

/** How far a long-running call has come, as the tool (or the server behind it) reports it. */
export interface ToolProgress {
  /** Work done so far; grows with each report. */
  readonly progress: number;
  /** Total work, when known. */
  readonly total?: number;
  /** A short human message, untrusted text: hosts sanitise it before showing it. */
  readonly message?: string;
}

/**
 * Everything a tool receives besides its input. Built by the host (core) for each call.
 */
export interface ToolExecutionContext {
  /**
   * True only when the host has decided this call may run (hooks and permissions passed).
   * Side-effect tools check it again with {@link assertAuthorized}.
   */
  readonly authorized: boolean;
  /** Absolute path of the workspace folder the call works in. */
  readonly workspaceRoot: string;
  /** The session the call belongs to. */
  readonly sessionId: string;
  /** The turn the call belongs to. */
  readonly turnId: string;
  /** The id of this tool call, as the model gave it. */
  readonly toolCallId: string;
  /** Aborted when the call is cancelled; long-running tools must observe it. */
  readonly signal: AbortSignal;
  /** Where file changes are recorded for undo, when the host wires it in. */
  readonly fileChanges?: FileChangeRecorder;
  /** Where large output is stored, when the host wires it in. */
  readonly artifacts?: ArtifactWriter;
  /**
   * Workspace-relative globs (micromatch syntax) that permission rules deny to this call. Tools
   * that read many paths (search, glob) leave matching files and folders out and say how many.
   */
  readonly excludedPaths?: readonly string[];
  /** Where a long-running call reports progress, when the host shows it. */
  readonly reportProgress?: (progress: ToolProgress) => void;
  /**
   * The trace context of this call when the host traces it: tools that start processes pass it
   * on (see {@link traceContextEnvironment}), tools that call servers send it along.
   */
  readonly traceContext?: TraceContext;
}

/**
 * Throws `Tool <action> requires explicit authorization` (code `unauthorized`) unless
 * `context.authorized === true`. Every tool with side effects calls it first: core has already
 * decided, but this stops any other caller from instantiating a tool and causing side effects.
 */
export function assertAuthorized(context: Pick<ToolExecutionContext, 'authorized'> | undefined, action: string): void {
  if (context?.authorized !== true) throw new UnauthorizedToolError(action);
}
