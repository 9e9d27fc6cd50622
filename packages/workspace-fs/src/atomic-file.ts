import {
  closeSync,
  fchmodSync,
  fsyncSync,
  linkSync,
  openSync,
  readlinkSync,
  unlinkSync,
  writeSync,
  existsSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { isInsideFolder } from './path-boundary.js';
import { WORKSPACE_FS_ERROR_CODES, WorkspaceBoundaryError, WorkspaceFsError } from './workspace-fs-error.js';

const PROC_FD = existsSync('/proc/self/fd');

/** Removes `path`, ignoring a file that is already gone. */
export function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone, or never created: nothing to clean up.
  }
}

/**
 * Writes `content` to a new temporary file beside `target` (same folder, so a later link or
 * rename stays on one file system and is atomic) and returns its path. `mode` is applied
 * explicitly when given, else the process umask decides. The file is checked, through its open
 * descriptor, to really be inside `root`: a parent folder swapped for a symlink is caught.
 */
export function writeTemporaryFile(
  root: string,
  target: string,
  content: Uint8Array,
  mode: number | undefined,
  requested: string,
): string {
  const temporary = join(dirname(target), `.clawsmith-${randomBytes(8).toString('hex')}.tmp`);
  const descriptor = openSync(temporary, 'wx', mode === undefined ? 0o666 : 0o600);
  try {
    if (PROC_FD && !isInsideFolder(root, readlinkSync(`/proc/self/fd/${descriptor}`)))
      throw new WorkspaceBoundaryError(requested);
    let written = 0;
    while (written < content.length) written += writeSync(descriptor, content, written, content.length - written);
    if (mode !== undefined) fchmodSync(descriptor, mode);
    fsyncSync(descriptor);
  } catch (error) {
    closeSync(descriptor);
    removeQuietly(temporary);
    throw error;
  }
  closeSync(descriptor);
  return temporary;
}

/**
 * Links `temporary` into place at `target`, which must not exist: `link()` fails rather than
 * replace anything, so a target someone created after our check is never clobbered. The
 * temporary name is removed whatever happens.
 */
export function linkIntoPlace(temporary: string, target: string, requested: string): void {
  try {
    linkSync(temporary, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new WorkspaceFsError(
        WORKSPACE_FS_ERROR_CODES.fileExists,
        `${requested} already exists (it appeared while the tool ran); nothing was overwritten. Read it, then use edit_file.`,
        {
          path: requested,
          cause: error,
        },
      );
    }
    throw error;
  } finally {
    removeQuietly(temporary);
  }
}
