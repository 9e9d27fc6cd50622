import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  readlinkSync,
  readSync,
  type BigIntStats,
} from 'node:fs';
import { join } from 'node:path';
import { CheckpointError } from './checkpoint-errors.js';
import { identityOf, type FileIdentity } from './file-identity.js';

/**
 * What a path held or should hold, as far as checkpoints record it: nothing, a file with this
 * SHA-256 (and mode, when known), a symbolic link whose target text has this SHA-256, or a folder.
 */
export type FileState =
  | { readonly state: 'absent' }
  | { readonly state: 'file'; readonly sha256: string; readonly mode?: number }
  | { readonly state: 'symlink'; readonly sha256: string }
  | { readonly state: 'directory'; readonly mode?: number };

/**
 * What a path holds on disk now. Besides {@link FileState}: a symlink found on disk (`target`;
 * `onTheWay` when it is one of the path's folders rather than the path itself), something else,
 * or `unknown` when a turn never learned what a tool left.
 */
export type FoundState =
  | FileState
  | { readonly state: 'symlink'; readonly target: string; readonly onTheWay?: true }
  | { readonly state: 'other' }
  | { readonly state: 'unknown' };

/** One path an undo would not touch: what the agent left there and what is there now. */
export interface UndoConflict {
  /** Workspace-relative path with `/` separators. */
  readonly path: string;
  /** What the agent's last write left (the post-write hash), or `unknown`. */
  readonly expected: FoundState;
  /** What the path holds now (or, for `changed_between_turns`, what the next turn found). */
  readonly found: FoundState;
  /** `changed_on_disk` for a change after the last turn; `changed_between_turns` for one between two undone turns. */
  readonly reason: 'changed_on_disk' | 'changed_between_turns';
}

/** SHA-256 of `content`, lowercase hex. */
export function sha256Hex(content: Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/**
 * Checks that `path` is workspace-relative with `/` separators and no `.`, `..` or empty
 * segments, since undo later writes to exactly this path below the workspace root.
 */
export function assertWorkspacePath(path: string): void {
  const segments = path.split('/');
  const bad =
    path.length === 0 ||
    path.includes('\0') ||
    path.includes('\\') ||
    path.startsWith('/') ||
    /^[A-Za-z]:/.test(path) ||
    segments.some((segment) => segment === '' || segment === '.' || segment === '..');
  if (bad) {
    throw new CheckpointError(
      'checkpoint_invalid_path',
      `Cannot record ${JSON.stringify(path)}: paths must be workspace-relative with "/" separators and no ".", ".." or empty segments.`,
    );
  }
}

/** SHA-256 of a symbolic link's target text, the way checkpoints store links. */
export function symlinkDigest(target: string): string {
  return sha256Hex(Buffer.from(target));
}

function digestOf(state: FoundState): string | undefined {
  if (state.state === 'file') return state.sha256;
  if (state.state !== 'symlink') return undefined;
  if ('onTheWay' in state && state.onTheWay) return undefined;
  return 'target' in state ? symlinkDigest(state.target) : state.sha256;
}

/**
 * Whether two states name the same content: both absent, both folders, files with one hash or
 * links with one target. Modes are not compared (see {@link sameMode}).
 */
export function sameState(left: FoundState, right: FoundState): boolean {
  if (left.state !== right.state) return false;
  if (left.state === 'absent' || left.state === 'directory') return true;
  if (left.state === 'file' || left.state === 'symlink') {
    const digest = digestOf(left);
    return digest !== undefined && digest === digestOf(right);
  }
  return false;
}

/** Whether `found` has the mode `wanted` asks for (a state without a mode asks for none). */
export function sameMode(wanted: FoundState, found: FoundState): boolean {
  const mode = (state: FoundState) =>
    (state.state === 'file' || state.state === 'directory') && state.mode !== undefined
      ? state.mode & 0o7777
      : undefined;
  const asked = mode(wanted);
  return asked === undefined || asked === mode(found);
}

/** A regular file's bytes and permission bits, read without following a symlink at the path. */
export interface RegularFile {
  readonly content: Buffer;
  readonly mode: number;
}

/**
 * Reads what `path` (workspace-relative) holds below `root` without following symlinks: every
 * folder on the way must be a real folder. A file is hashed piece by piece, never held whole;
 * `identity` then tells that version of it from any later one (taken before the bytes are read).
 *
 * `walked`, shared by the inspections of one precheck, holds the absolute paths (the root
 * included) already found to be real folders in it, so each is `lstat`ed once rather than once per
 * file below it. Only for a check that reports: whatever writes walks every folder again just
 * before (see `stillSameFile`).
 */
export function inspectPath(
  root: string,
  path: string,
  walked?: Set<string>,
): { found: FoundState; identity?: FileIdentity } {
  return inspect(root, path, false, walked);
}

/** {@link inspectPath}, and the bytes when the path holds a file (read whole). */
export function inspectPathWithContent(root: string, path: string): { found: FoundState; file?: RegularFile } {
  return inspect(root, path, true);
}

function inspect(
  root: string,
  path: string,
  withContent: boolean,
  walked?: Set<string>,
): { found: FoundState; file?: RegularFile; identity?: FileIdentity } {
  if (walked?.has(root) !== true) {
    assertWorkspaceFolder(root);
    walked?.add(root);
  }
  const segments = path.split('/');
  let current = root;
  for (let index = 0; index < segments.length; index += 1) {
    current = join(current, segments[index]!);
    const last = index === segments.length - 1;
    if (!last && walked?.has(current) === true) continue;
    let stats;
    try {
      stats = lstatSync(current);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { found: { state: 'absent' } };
      throw error;
    }
    if (stats.isSymbolicLink()) {
      const target = readLinkTarget(current);
      // Swapped between lstat and readlink: the path is changing under us, which undo treats
      // as a conflict rather than guessing.
      if (target === undefined) return { found: { state: 'other' } };
      return { found: last ? { state: 'symlink', target } : { state: 'symlink', target, onTheWay: true } };
    }
    if (!last) {
      if (!stats.isDirectory()) return { found: { state: 'other' } };
      walked?.add(current);
      continue;
    }
    if (stats.isDirectory()) return { found: { state: 'directory', mode: stats.mode & 0o7777 } };
    if (!stats.isFile()) return { found: { state: 'other' } };
  }
  if (!withContent) {
    const hashed = hashRegularFile(current);
    if (hashed === undefined) return { found: { state: 'other' } };
    return { found: { state: 'file', sha256: hashed.sha256, mode: hashed.mode }, identity: hashed.identity };
  }
  const file = readRegularFile(current);
  if (file === undefined) return { found: { state: 'other' } };
  return { found: { state: 'file', sha256: sha256Hex(file.content), mode: file.mode }, file };
}

/** Throws `checkpoint_workspace_unavailable` unless `root` is a folder. */
function assertWorkspaceFolder(root: string): void {
  let rootStats;
  try {
    rootStats = lstatSync(root);
  } catch (error) {
    throw new CheckpointError(
      'checkpoint_workspace_unavailable',
      `The workspace ${root} is not readable; restore it or undo from the machine that has it.`,
      { cause: error },
    );
  }
  if (!rootStats.isDirectory()) {
    throw new CheckpointError(
      'checkpoint_workspace_unavailable',
      `The workspace ${root} is not a folder any more; nothing can be restored into it.`,
    );
  }
}

/** Bytes read at a time when a file is hashed without being kept. */
const HASH_PIECE_BYTES = 1024 * 1024;

/** A regular file's SHA-256, mode and identity, read in pieces through `O_NOFOLLOW`; undefined when it is not one. */
function hashRegularFile(absolutePath: string): { sha256: string; mode: number; identity: FileIdentity } | undefined {
  return withRegularFile(absolutePath, (descriptor, stats) => {
    const hash = createHash('sha256');
    const piece = Buffer.allocUnsafe(Math.min(HASH_PIECE_BYTES, Math.max(1, Number(stats.size))));
    for (;;) {
      const read = readSync(descriptor, piece, 0, piece.byteLength, null);
      if (read === 0) break;
      hash.update(piece.subarray(0, read));
    }
    return { sha256: hash.digest('hex'), mode: Number(stats.mode & 0o7777n), identity: identityOf(stats) };
  });
}

function readLinkTarget(absolutePath: string): string | undefined {
  try {
    return readlinkSync(absolutePath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EINVAL' || code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Opens `absolutePath` for reading without following a symbolic link at it (and without waiting
 * on a FIFO) and runs `read` on it when it is a regular file; undefined when it is not one (any
 * more). The descriptor is closed afterwards.
 */
function withRegularFile<Result>(
  absolutePath: string,
  read: (descriptor: number, stats: BigIntStats) => Result,
): Result | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(absolutePath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR') return undefined;
    throw error;
  }
  try {
    const stats = fstatSync(descriptor, { bigint: true });
    return stats.isFile() ? read(descriptor, stats) : undefined;
  } finally {
    closeSync(descriptor);
  }
}

/** Reads a regular file through `O_NOFOLLOW`; undefined when it is not one (any more). */
export function readRegularFile(absolutePath: string): RegularFile | undefined {
  return withRegularFile(absolutePath, (descriptor, stats) => ({
    content: readFileSync(descriptor),
    mode: Number(stats.mode & 0o7777n),
  }));
}

/**
 * A regular file's size, and its bytes when at most `maxBytes`, read without following a symlink
 * at the path: one open, one fstat, the reads, one close (no read to find the end: a file that
 * grew meanwhile shows in its hash). Undefined when the path holds no regular file.
 */
export function readFileUpTo(absolutePath: string, maxBytes: number): { size: number; content?: Buffer } | undefined {
  return withRegularFile(absolutePath, (descriptor, stats) => {
    const size = Number(stats.size);
    if (size > maxBytes) return { size };
    const content = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < content.byteLength) {
      const read = readSync(descriptor, content, filled, content.byteLength - filled, null);
      if (read === 0) break;
      filled += read;
    }
    return { size, content: filled === content.byteLength ? content : content.subarray(0, filled) };
  });
}
