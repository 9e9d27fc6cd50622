import { createRequire } from 'node:module';
import { runInThisContext } from 'node:vm';

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
 * …), `ECHANGED` for a failed `expect`, `EOUTSIDE` for a created file found outside `root`.
 */
export interface WorkspaceWall {
  readonly kind: 'bubblewrap' | 'none';
  apply(batch: WorkspaceMutationBatch): Promise<void>;
  /** Stops helper processes; later batches start them again. */
  close(): Promise<void>;
}

/**
 * The mutation applier as JavaScript source, evaluated to `(fs) => (batch) => outcome`: the same
 * code runs in this process (the `none` wall) and inside the sandboxed helper, which receives it
 * as text because it must not load any module from the workspace. Contents arrive as bytes here
 * and as base64 text in the helper.
 */
export const WORKSPACE_MUTATION_SOURCE = String.raw`(function createApplier(fs) {
  const quietly = (path) => { try { fs.unlinkSync(path); } catch {} };
  const failure = (code, message) => Object.assign(new Error(message), { code });
  const inside = (root, real) => real === root || real.startsWith(root.endsWith('/') ? root : root + '/');
  const bytes = (content) => (typeof content === 'string' ? Buffer.from(content, 'base64') : content);
  function create(mutation) {
    const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
    const descriptor = fs.openSync(mutation.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mutation.mode === undefined ? 0o666 : 0o600);
    try {
      if (mutation.root !== undefined && fs.existsSync('/proc/self/fd')) {
        const real = fs.readlinkSync('/proc/self/fd/' + descriptor);
        if (!inside(mutation.root, real)) throw failure('EOUTSIDE', mutation.path + ' resolved outside the workspace');
      }
      const content = bytes(mutation.content);
      let written = 0;
      while (written < content.length) written += fs.writeSync(descriptor, content, written, content.length - written);
      if (mutation.mode !== undefined) fs.fchmodSync(descriptor, mutation.mode);
      if (mutation.sync !== false) fs.fsyncSync(descriptor);
    } catch (error) {
      fs.closeSync(descriptor);
      quietly(mutation.path);
      throw error;
    }
    fs.closeSync(descriptor);
  }
  function expect(mutation) {
    const found = fs.lstatSync(mutation.path);
    if (found.dev !== mutation.device || found.ino !== mutation.inode || found.size !== mutation.size || found.mtimeMs !== mutation.mtimeMs)
      throw failure('ECHANGED', mutation.path + ' changed');
  }
  function applyOne(mutation) {
    switch (mutation.kind) {
      case 'create': return create(mutation);
      case 'link': return fs.linkSync(mutation.from, mutation.to);
      case 'rename': return fs.renameSync(mutation.from, mutation.to);
      case 'unlink': return fs.unlinkSync(mutation.path);
      case 'mkdir': return fs.mkdirSync(mutation.path, mutation.mode === undefined ? undefined : { mode: mutation.mode });
      case 'rmdir': return fs.rmdirSync(mutation.path);
      case 'chmod': return fs.chmodSync(mutation.path, mutation.mode);
      case 'symlink': return fs.symlinkSync(mutation.target, mutation.path);
      case 'expect': return expect(mutation);
      default: throw failure('EINVAL', 'unknown mutation ' + String(mutation.kind));
    }
  }
  return function apply(batch) {
    try {
      for (let index = 0; index < batch.mutations.length; index += 1) {
        try {
          applyOne(batch.mutations[index]);
        } catch (error) {
          return { ok: false, index, code: String((error && error.code) || 'EIO'), message: String(error && error.message) };
        }
      }
      return { ok: true };
    } finally {
      for (const path of batch.cleanup || []) quietly(path);
    }
  };
})`;

/** What one batch came to, as the applier reports it. */
export type WorkspaceMutationOutcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly index: number; readonly code: string; readonly message: string };

/** The error a failed mutation rejects with: `code` is the system error code. */
export function mutationFailure(outcome: Extract<WorkspaceMutationOutcome, { ok: false }>): Error {
  return Object.assign(new Error(outcome.message), { code: outcome.code, mutationIndex: outcome.index });
}

let directApplier: ((batch: WorkspaceMutationBatch) => WorkspaceMutationOutcome) | undefined;

/**
 * The wall of last resort: applies mutations in this process, guarded only by the callers'
 * user-space path checks. Used where no kernel-enforced wall can be built (macOS, sandbox `off`).
 */
export function createDirectWorkspaceWall(): WorkspaceWall {
  return {
    kind: 'none',
    async apply(batch) {
      directApplier ??= (runInThisContext(WORKSPACE_MUTATION_SOURCE) as (fs: unknown) => typeof directApplier)(
        createRequire(import.meta.url)('node:fs'),
      );
      const outcome = directApplier!(batch);
      if (!outcome.ok) throw mutationFailure(outcome);
    },
    async close() {},
  };
}
