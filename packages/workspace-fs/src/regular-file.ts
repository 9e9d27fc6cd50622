import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
  type Stats,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { isInsideFolder, type WorkspacePath } from './path-boundary.js';
import { WORKSPACE_FS_ERROR_CODES, WorkspaceBoundaryError, WorkspaceFsError } from './workspace-fs-error.js';

// O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer; the
// fstat check then refuses it. O_NOFOLLOW: a leaf swapped for a symlink after realpath fails.
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const PROC_FD = existsSync('/proc/self/fd');

/** What kind of thing sits at a path, for messages. */
export function describeKind(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

function notFound(path: WorkspacePath): WorkspaceFsError {
  return new WorkspaceFsError(
    WORKSPACE_FS_ERROR_CODES.fileNotFound,
    `File not found: ${path.requested}. Check the path with glob_files.`,
    {
      path: path.requested,
    },
  );
}

/** Throws `not_a_file` (or `file_not_found`) unless the real path holds a regular file. */
export function assertRegularFile(path: WorkspacePath, action: string): Stats {
  if (!path.exists) throw notFound(path);
  const stats = lstatSync(path.real);
  if (!stats.isFile()) {
    const hint = stats.isDirectory() ? ' Use glob_files to list its files.' : '';
    throw new WorkspaceFsError(
      WORKSPACE_FS_ERROR_CODES.notAFile,
      `Cannot ${action} ${path.requested}: it is ${describeKind(stats)}, not a regular file.${hint}`,
      {
        path: path.requested,
      },
    );
  }
  return stats;
}

/** An open regular file inside the workspace. */
export interface OpenFile {
  readonly descriptor: number;
  readonly stats: Stats;
}

/**
 * Opens the regular file at `path.real` for reading without following a final symlink and
 * without blocking on a FIFO, then checks what was opened: a regular file, and (where /proc
 * exists) really inside the workspace, so a parent swapped for a symlink after the boundary
 * check is caught too.
 */
export function openRegularFile(path: WorkspacePath, action: string): OpenFile {
  assertRegularFile(path, action);
  let descriptor: number;
  try {
    descriptor = openSync(path.real, READ_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw notFound(path);
    throw new WorkspaceFsError(
      WORKSPACE_FS_ERROR_CODES.notAFile,
      `Cannot ${action} ${path.requested}: it cannot be opened (${code ?? 'error'}).`,
      {
        path: path.requested,
        cause: error,
      },
    );
  }
  try {
    const stats = fstatSync(descriptor);
    if (!stats.isFile()) {
      throw new WorkspaceFsError(
        WORKSPACE_FS_ERROR_CODES.notAFile,
        `Cannot ${action} ${path.requested}: it is ${describeKind(stats)}, not a regular file.`,
        {
          path: path.requested,
        },
      );
    }
    if (PROC_FD && !isInsideFolder(path.root, readlinkSync(`/proc/self/fd/${descriptor}`)))
      throw new WorkspaceBoundaryError(path.requested);
    return { descriptor, stats };
  } catch (error) {
    closeSync(descriptor);
    throw error;
  }
}

/** Reads up to `length` bytes from `position` into a new buffer, looping over short reads. */
export function readRange(descriptor: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const count = readSync(descriptor, buffer, filled, length - filled, position + filled);
    if (count === 0) break;
    filled += count;
  }
  return buffer.subarray(0, filled);
}

/** Reads a whole regular file of at most `limit` bytes; throws `file_too_large` beyond it. */
export function readWholeFile(path: WorkspacePath, action: string, limit: number): { content: Buffer; stats: Stats } {
  const file = openRegularFile(path, action);
  try {
    // One byte beyond the limit tells a file that grew after fstat from one that fits.
    const content = readRange(file.descriptor, 0, Math.min(file.stats.size, limit) + 1);
    if (content.length > limit) {
      throw new WorkspaceFsError(
        WORKSPACE_FS_ERROR_CODES.fileTooLarge,
        `Cannot ${action} ${path.requested}: it holds ${file.stats.size} bytes, over the ${limit}-byte limit of this tool.`,
        { path: path.requested },
      );
    }
    return { content, stats: file.stats };
  } finally {
    closeSync(file.descriptor);
  }
}

/** Whether `bytes` look binary: a NUL byte in the first 8,000 bytes, as git decides. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8_000).includes(0);
}

/** The SHA-256 of `bytes` in hex. */
export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Whether two stats describe the same file (device and inode). */
export function sameFile(left: Stats, right: Stats): boolean {
  return left.dev === right.dev && left.ino === right.ino;
}
