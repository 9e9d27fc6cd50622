/**
 * One change to the workspace's file system, as the file tools and undo make them. Paths are
 * absolute. Every mutation refuses to follow a symbolic link at its last component.
 */
export type WorkspaceMutation =
  /**
   * Creates a new file (`O_CREAT | O_EXCL | O_NOFOLLOW`), writes `content`, applies `mode` (else
   * the umask decides), fsyncs (unless `sync` is false: the caller syncs a batch of files itself).
   * With `root`, the opened file must lie inside it.
   */
  | {
      readonly kind: 'create';
      readonly path: string;
      readonly content: Uint8Array;
      readonly mode?: number;
      readonly root?: string;
      readonly sync?: boolean;
    }
  /**
   * Appends `content` to an existing regular file (`O_APPEND | O_NOFOLLOW`, never created here),
   * then applies `mode` and fsyncs like `create`: a large body is written as a `create` of its
   * first piece and an `append` of each further piece, so no batch carries the whole file.
   */
  | {
      readonly kind: 'append';
      readonly path: string;
      readonly content: Uint8Array;
      readonly mode?: number;
      readonly root?: string;
      readonly sync?: boolean;
    }
  /**
   * Rewrites an existing regular file in place, keeping its inode: opens it (`O_WRONLY |
   * O_NOFOLLOW`, never created here) and requires the open file to be this very version (device,
   * inode, size, `mtimeMs` and `ctimeMs` as `fstat` gives them), else `ECHANGED` with nothing
   * written; a file with other names (hard links) fails with `EMLINK`, also unwritten. Then applies
   * `mode` (when it differs), writes `content` from the first byte, cuts the file to its length and
   * fsyncs (unless `sync` is false). No new inode, no freed blocks, no name changes: the cheapest
   * restore of a file, but a process killed during the write leaves the new bytes up to some point
   * followed by the old ones, so only a caller that can recognise and finish such a file after a
   * crash may use it (undo's journal does). With `root`, the opened file must lie inside it.
   */
  | {
      readonly kind: 'overwrite';
      readonly path: string;
      readonly content: Uint8Array;
      readonly mode?: number;
      readonly root?: string;
      readonly sync?: boolean;
      readonly device: number;
      readonly inode: number;
      readonly size: number;
      readonly mtimeMs: number;
      readonly ctimeMs: number;
    }
  /** A new name for an existing file; fails with `EEXIST` rather than replace anything. */
  | { readonly kind: 'link'; readonly from: string; readonly to: string }
  /** Replaces `to` by `from` atomically. */
  | { readonly kind: 'rename'; readonly from: string; readonly to: string }
  /** Removes one name. */
  | { readonly kind: 'unlink'; readonly path: string }
  /** Creates one folder (with `mode`, else the umask decides). */
  | { readonly kind: 'mkdir'; readonly path: string; readonly mode?: number }
  /** Removes one empty folder (`ENOTEMPTY` otherwise). */
  | { readonly kind: 'rmdir'; readonly path: string }
  /** Sets the permission bits of `path`. */
  | { readonly kind: 'chmod'; readonly path: string; readonly mode: number }
  /** Creates a symbolic link at `path` pointing to `target`. */
  | { readonly kind: 'symlink'; readonly path: string; readonly target: string }
  /** Fails with `ECHANGED` unless `path` (not followed) is still this very file, unchanged. */
  | {
      readonly kind: 'expect';
      readonly path: string;
      readonly device: number;
      readonly inode: number;
      readonly size: number;
      readonly mtimeMs: number;
    };

/** Mutations applied in order, stopping at the first failure. */
export interface WorkspaceMutationBatch {
  /** The workspace every path belongs to: the wall lets nothing outside it change. */
  readonly workspaceRoot: string;
  readonly mutations: readonly WorkspaceMutation[];
  /** Paths removed (quietly) after the batch, whether it succeeded or not: temporary files. */
  readonly cleanup?: readonly string[];
}

/**
 * The port through which file tools and undo change files. The `bubblewrap` wall applies the
 * mutations in a helper process whose only writable folder is the workspace, so no race with a
 * command that swaps folders for symbolic links can make one land outside: the kernel refuses
 * it (`EROFS`). `none` applies them in this process, guarded only by the callers' path checks.
 * A failed mutation rejects with an `Error` whose `code` is the system error (`EEXIST`, `EROFS`,
 * …), `ECHANGED` for a failed `expect` or `overwrite`, `EMLINK` for an `overwrite` of a file with other
 * names, `EOUTSIDE` for a created file found outside `root`.
 */
export interface WorkspaceWall {
  readonly kind: 'bubblewrap' | 'none';
  apply(batch: WorkspaceMutationBatch): Promise<void>;
  /** Stops helper processes; later batches start them again. */
  close(): Promise<void>;
}

/** What one batch came to, as the applier reports it. */
export type WorkspaceMutationOutcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly index: number; readonly code: string; readonly message: string };

/** The error a failed mutation rejects with: `code` is the system error code. */
export function mutationFailure(outcome: Extract<WorkspaceMutationOutcome, { ok: false }>): Error {
  return Object.assign(new Error(outcome.message), { code: outcome.code, mutationIndex: outcome.index });
}
