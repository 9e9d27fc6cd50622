import type * as NodeFs from 'node:fs';
import type { WorkspaceMutation, WorkspaceMutationBatch, WorkspaceMutationOutcome } from './workspace-mutations.js';

/** A mutation as it arrives in the sandboxed helper: a created or appended file's contents as base64 text. */
export type WireMutation =
  | WorkspaceMutation
  | (Omit<Extract<WorkspaceMutation, { kind: 'create' }>, 'content'> & { readonly content: string })
  | (Omit<Extract<WorkspaceMutation, { kind: 'append' }>, 'content'> & { readonly content: string })
  | (Omit<Extract<WorkspaceMutation, { kind: 'overwrite' }>, 'content'> & { readonly content: string });

/** A batch as the applier takes it, in this process (bytes) or in the helper (base64 text). */
export interface WireMutationBatch extends Omit<WorkspaceMutationBatch, 'mutations'> {
  readonly mutations: readonly WireMutation[];
}

/**
 * Makes the mutation applier over `fs`. The same code runs in this process (the `none` wall) and
 * inside the sandboxed helper, which receives it as text (`String(createWorkspaceMutationApplier)`)
 * because it must not load any module from the workspace: so this function refers to nothing
 * outside itself but `fs` and the runtime's globals, and is written in JavaScript that needs no
 * helper from the compiler.
 */
export function createWorkspaceMutationApplier(
  fs: typeof NodeFs,
): (batch: WireMutationBatch) => WorkspaceMutationOutcome {
  const quietly = (path: string) => {
    try {
      fs.unlinkSync(path);
    } catch {
      // Already gone, or never made.
    }
  };
  const failure = (code: string, message: string) => Object.assign(new Error(message), { code });
  const inside = (root: string, real: string) =>
    real === root || real.startsWith(root.endsWith('/') ? root : root + '/');
  const bytes = (content: Uint8Array | string) =>
    typeof content === 'string' ? Buffer.from(content, 'base64') : content;

  function write(mutation: Extract<WireMutation, { kind: 'create' | 'append' }>) {
    const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_APPEND } = fs.constants;
    const creating = mutation.kind === 'create';
    const descriptor = creating
      ? fs.openSync(
          mutation.path,
          O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW,
          mutation.mode === undefined ? 0o666 : 0o600,
        )
      : fs.openSync(mutation.path, O_WRONLY | O_APPEND | O_NOFOLLOW);
    try {
      if (!creating && !fs.fstatSync(descriptor).isFile())
        throw failure('EINVAL', mutation.path + ' is not a regular file');
      assertInside(mutation.root, descriptor, mutation.path);
      const content = bytes(mutation.content);
      let written = 0;
      while (written < content.length) written += fs.writeSync(descriptor, content, written, content.length - written);
      if (mutation.mode !== undefined) fs.fchmodSync(descriptor, mutation.mode);
      if (mutation.sync !== false) fs.fsyncSync(descriptor);
    } catch (error) {
      fs.closeSync(descriptor);
      // Only a file this mutation created is removed: an append leaves the caller's file to its cleanup.
      if (creating) quietly(mutation.path);
      throw error;
    }
    fs.closeSync(descriptor);
  }

  function assertInside(root: string | undefined, descriptor: number, path: string) {
    if (root === undefined || !fs.existsSync('/proc/self/fd')) return;
    const real = fs.readlinkSync('/proc/self/fd/' + descriptor);
    if (!inside(root, real)) throw failure('EOUTSIDE', path + ' resolved outside the workspace');
  }

  function overwrite(mutation: Extract<WireMutation, { kind: 'overwrite' }>) {
    const { O_WRONLY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
    // O_NONBLOCK: a FIFO swapped in at the path fails the open rather than wait for a reader.
    const descriptor = fs.openSync(mutation.path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK);
    try {
      const found = fs.fstatSync(descriptor);
      if (
        !found.isFile() ||
        found.dev !== mutation.device ||
        found.ino !== mutation.inode ||
        found.size !== mutation.size ||
        found.mtimeMs !== mutation.mtimeMs ||
        found.ctimeMs !== mutation.ctimeMs
      )
        throw failure('ECHANGED', mutation.path + ' changed');
      // Writing in place would change every other name of the file too.
      if (found.nlink !== 1) throw failure('EMLINK', mutation.path + ' has other names');
      assertInside(mutation.root, descriptor, mutation.path);
      // The mode first: a refusal (someone else's file) leaves the file unwritten.
      if (mutation.mode !== undefined && (found.mode & 0o7777) !== mutation.mode)
        fs.fchmodSync(descriptor, mutation.mode);
      const content = bytes(mutation.content);
      let written = 0;
      while (written < content.length)
        written += fs.writeSync(descriptor, content, written, content.length - written, written);
      if (found.size > content.length) fs.ftruncateSync(descriptor, content.length);
      if (mutation.sync !== false) fs.fsyncSync(descriptor);
    } finally {
      fs.closeSync(descriptor);
    }
  }

  function expectUnchanged(mutation: Extract<WireMutation, { kind: 'expect' }>) {
    const found = fs.lstatSync(mutation.path);
    if (
      found.dev !== mutation.device ||
      found.ino !== mutation.inode ||
      found.size !== mutation.size ||
      found.mtimeMs !== mutation.mtimeMs
    )
      throw failure('ECHANGED', mutation.path + ' changed');
  }

  function applyOne(mutation: WireMutation): void {
    switch (mutation.kind) {
      case 'create':
      case 'append':
        return write(mutation);
      case 'overwrite':
        return overwrite(mutation);
      case 'link':
        return fs.linkSync(mutation.from, mutation.to);
      case 'rename':
        return fs.renameSync(mutation.from, mutation.to);
      case 'unlink':
        return fs.unlinkSync(mutation.path);
      case 'mkdir':
        fs.mkdirSync(mutation.path, mutation.mode === undefined ? undefined : { mode: mutation.mode });
        return;
      case 'rmdir':
        return fs.rmdirSync(mutation.path);
      case 'chmod':
        return fs.chmodSync(mutation.path, mutation.mode);
      case 'symlink':
        return fs.symlinkSync(mutation.target, mutation.path);
      case 'expect':
        return expectUnchanged(mutation);
      default:
        throw failure('EINVAL', 'unknown mutation ' + String((mutation as { kind: unknown }).kind));
    }
  }

  return function apply(batch) {
    try {
      for (let index = 0; index < batch.mutations.length; index += 1) {
        try {
          applyOne(batch.mutations[index]!);
        } catch (error) {
          const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
          return { ok: false, index, code: String(code || 'EIO'), message: String(message) };
        }
      }
      return { ok: true };
    } finally {
      for (const path of batch.cleanup || []) quietly(path);
    }
  };
}

/**
 * The applier as JavaScript source, evaluated to `(fs) => (batch) => outcome`: what the sandboxed
 * helper runs. Contents arrive there as base64 text.
 */
export const WORKSPACE_MUTATION_SOURCE = `(${String(createWorkspaceMutationApplier)})`;
