import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { CheckpointError } from './checkpoint-errors.js';

/** What a path held or should hold, as far as checkpoints record it: nothing, or a file with this SHA-256. */
export type FileState = { readonly state: 'absent' } | { readonly state: 'file'; readonly sha256: string };

/**
 * What a path holds on disk now. Besides {@link FileState}: a symlink (at the path or at one of
 * its folders), a folder, something else, or `unknown` when a turn never learned what a tool left.
 */
export type FoundState =
  | FileState
  | { readonly state: 'symlink'; readonly target: string }
  | { readonly state: 'directory' }
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

/** Whether two states name the same content (both absent, or files with one hash). */
export function sameState(left: FoundState, right: FoundState): boolean {
  if (left.state === 'absent' || right.state === 'absent') return left.state === right.state;
  return left.state === 'file' && right.state === 'file' && left.sha256 === right.sha256;
}

/** A regular file's bytes and permission bits, read without following a symlink at the path. */
export interface RegularFile {
  readonly content: Buffer;
  readonly mode: number;
}

/**
 * Reads what `path` (workspace-relative) holds below `root` without following symlinks: every
 * folder on the way must be a real folder. Returns the found state, and the bytes when a file.
 */
export function inspectPath(root: string, path: string): { found: FoundState; file?: RegularFile } {
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
  const segments = path.split('/');
  let current = root;
  for (let index = 0; index < segments.length; index += 1) {
    current = join(current, segments[index]!);
    let stats;
    try {
      stats = lstatSync(current);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { found: { state: 'absent' } };
      throw error;
    }
    const last = index === segments.length - 1;
    if (stats.isSymbolicLink()) return { found: { state: 'symlink', target: readlinkSync(current) } };
    if (!last) {
      if (stats.isDirectory()) continue;
      return { found: { state: 'other' } };
    }
    if (stats.isDirectory()) return { found: { state: 'directory' } };
    if (!stats.isFile()) return { found: { state: 'other' } };
  }
  const file = readRegularFile(current);
  if (file === undefined) return { found: { state: 'other' } };
  return { found: { state: 'file', sha256: sha256Hex(file.content) }, file };
}

/** Reads a regular file through `O_NOFOLLOW`; undefined when it is not one (any more). */
export function readRegularFile(absolutePath: string): RegularFile | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(absolutePath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR') return undefined;
    throw error;
  }
  try {
    const stats = fstatSync(descriptor);
    if (!stats.isFile()) return undefined;
    return { content: readFileSync(descriptor), mode: stats.mode & 0o7777 };
  } finally {
    closeSync(descriptor);
  }
}
