import type { Stats } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { WorkspaceMutation, WorkspaceWall } from '@clawsmith/tool-protocol';
import type { WorkspacePath } from './path-boundary.js';
import { WORKSPACE_FS_ERROR_CODES, WorkspaceBoundaryError, WorkspaceFsError } from './workspace-fs-error.js';

/** A temporary name beside `target` (same folder, so a later link or rename stays on one file system). */
export function temporaryBeside(target: string): string {
  return join(dirname(target), `.clawsmith-${randomBytes(8).toString('hex')}.tmp`);
}

/** The new temporary file of a batch: checked, through its descriptor, to really be inside the root. */
export function createTemporary(
  path: WorkspacePath,
  temporary: string,
  content: Uint8Array,
  mode: number | undefined,
): WorkspaceMutation {
  return { kind: 'create', path: temporary, content, root: path.root, ...(mode === undefined ? {} : { mode }) };
}

/** The check that `path` is still the file `stats` describes, right before it is replaced or removed. */
export function expectUnchanged(path: WorkspacePath, stats: Stats): WorkspaceMutation {
  return {
    kind: 'expect',
    path: path.real,
    device: stats.dev,
    inode: stats.ino,
    size: stats.size,
    mtimeMs: stats.mtimeMs,
  };
}

// The wall (or the descriptor check) refused a path that a racing command swapped to lead outside.
const OUTSIDE_CODES = new Set(['EROFS', 'EOUTSIDE', 'EACCES']);

/**
 * Applies `mutations` through the workspace wall, translating its refusals: a path that led
 * outside becomes `path_outside_workspace`, a file that changed since it was read `file_changed`,
 * an existing target `file_exists`. Temporary names in `cleanup` are removed whatever happens.
 */
export async function applyThroughWall(
  wall: WorkspaceWall,
  path: WorkspacePath,
  mutations: readonly WorkspaceMutation[],
  cleanup: readonly string[] = [],
): Promise<void> {
  try {
    await wall.apply({ workspaceRoot: path.root, mutations, cleanup });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (OUTSIDE_CODES.has(code)) throw new WorkspaceBoundaryError(path.requested);
    if (code === 'ECHANGED') {
      throw new WorkspaceFsError(
        WORKSPACE_FS_ERROR_CODES.fileChanged,
        `${path.relative} changed while the tool ran; nothing was written. Re-read it and try again.`,
        { path: path.requested, retryable: true, cause: error },
      );
    }
    if (code === 'EEXIST') {
      throw new WorkspaceFsError(
        WORKSPACE_FS_ERROR_CODES.fileExists,
        `${path.requested} already exists (it appeared while the tool ran); nothing was overwritten. Read it, then use edit_file.`,
        { path: path.requested, cause: error },
      );
    }
    throw error;
  }
}

/**
 * Creates `path` with `content`, atomically and never replacing anything: a temporary file is
 * written beside it and linked into place (`link()` fails rather than replace a file someone
 * created after our check).
 */
export async function createFileAtomically(
  wall: WorkspaceWall,
  path: WorkspacePath,
  content: Uint8Array,
  mode: number | undefined,
): Promise<void> {
  const temporary = temporaryBeside(path.real);
  await applyThroughWall(
    wall,
    path,
    [createTemporary(path, temporary, content, mode), { kind: 'link', from: temporary, to: path.real }],
    [temporary],
  );
}
