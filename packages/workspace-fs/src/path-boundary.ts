import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { WORKSPACE_FS_ERROR_CODES, WorkspaceBoundaryError, WorkspaceFsError } from './workspace-fs-error.js';

const MAX_PATH_BYTES = 4_096;
const MAX_SEGMENT_BYTES = 255;

/** Options of {@link resolveWorkspacePath}. */
export interface ResolveWorkspacePathOptions {
  /** The caller means to create or change the path: the workspace root itself is refused. */
  readonly forWrite?: boolean;
}

/** A requested path after both boundary checks. */
export interface WorkspacePath {
  /** The workspace root's real path. */
  readonly root: string;
  /** The path as the caller gave it. */
  readonly requested: string;
  /** The lexical absolute path (symlinks not resolved), inside `root`. */
  readonly lexical: string;
  /**
   * The real path: of the target when it exists, else of its nearest existing parent joined
   * with the missing segments. Always inside `root`.
   */
  readonly real: string;
  /** `real` relative to `root` with `/` separators; `''` for the root itself. */
  readonly relative: string;
  /** Whether something exists at the lexical path (a dangling symlink does not count). */
  readonly exists: boolean;
  /** How many trailing segments do not exist yet: 0 when it exists, 1 when only the leaf is missing. */
  readonly missingSegments: number;
}

/** Whether `candidate` equals `root` or lies below it, compared by whole path segments. */
export function isInsideFolder(root: string, candidate: string): boolean {
  const path = relative(root, candidate);
  if (path === '') return true;
  if (isAbsolute(path)) return false;
  return path !== '..' && !path.startsWith(`..${sep}`);
}

/** `absolute` relative to `root`, with `/` separators. */
export function toWorkspaceRelative(root: string, absolute: string): string {
  return relative(root, absolute).split(sep).join('/');
}

function invalid(message: string, requested: string): WorkspaceFsError {
  return new WorkspaceFsError(WORKSPACE_FS_ERROR_CODES.invalidPath, message, { path: requested });
}

/** Checks the shape of a requested path: a non-empty string without NUL bytes, not too long. */
export function assertPathShape(requested: unknown, what = 'path'): asserts requested is string {
  if (typeof requested !== 'string') {
    throw invalid(
      `The ${what} must be a string, got ${requested === null ? 'null' : typeof requested}.`,
      String(requested),
    );
  }
  if (requested.trim() === '')
    throw invalid(`The ${what} is empty; give a path relative to the workspace, such as src/index.ts.`, requested);
  if (requested.includes('\0'))
    throw invalid(`The ${what} contains a NUL byte; remove it.`, requested.replaceAll('\0', '\\0'));
  if (Buffer.byteLength(requested) > MAX_PATH_BYTES) {
    throw invalid(
      `The ${what} is longer than ${MAX_PATH_BYTES} bytes; give a shorter path.`,
      `${requested.slice(0, 80)}…`,
    );
  }
  for (const segment of requested.split(/[\\/]/)) {
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) {
      throw invalid(
        `A segment of the ${what} is longer than ${MAX_SEGMENT_BYTES} bytes; give a shorter name.`,
        `${requested.slice(0, 80)}…`,
      );
    }
  }
}

/** The real path of the workspace root; throws `workspace_unavailable` when it is not a folder. */
export function resolveWorkspaceRoot(workspaceRoot: unknown): string {
  if (typeof workspaceRoot !== 'string' || !isAbsolute(workspaceRoot)) {
    throw new WorkspaceFsError(
      WORKSPACE_FS_ERROR_CODES.workspaceUnavailable,
      'The workspace root must be an absolute path; the host was configured wrongly.',
    );
  }
  try {
    const root = realpathSync.native(workspaceRoot);
    if (statSync(root).isDirectory()) return root;
  } catch (error) {
    throw new WorkspaceFsError(
      WORKSPACE_FS_ERROR_CODES.workspaceUnavailable,
      `The workspace folder ${workspaceRoot} cannot be opened.`,
      { cause: error },
    );
  }
  throw new WorkspaceFsError(
    WORKSPACE_FS_ERROR_CODES.workspaceUnavailable,
    `The workspace root ${workspaceRoot} is not a folder.`,
  );
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? (error as NodeJS.ErrnoException).code : undefined;
}

function lexicalAbsolute(workspaceRoot: string, root: string, requested: string): string {
  if (!isAbsolute(requested)) return resolve(root, requested);
  const absolute = resolve(requested);
  // An absolute path may name the workspace by the root the host configured (which can itself
  // sit under a symlink such as /tmp) or by its real path; both map onto the real root.
  const configured = resolve(workspaceRoot);
  if (configured !== root && isInsideFolder(configured, absolute)) return join(root, relative(configured, absolute));
  return absolute;
}

/**
 * Resolves `requested` to a real path inside the workspace, in two checks. First lexically,
 * before the disk is touched, so a path that climbs out with `..` or names an outside absolute
 * path cannot be used to learn whether something exists there. Then through `realpath` (of the
 * target, or of its nearest existing parent when it does not exist yet), so a symlink inside the
 * workspace that points outside is refused too. Both compare whole path segments: with workspace
 * `/w/proj`, `/w/proj-evil/x` is outside.
 *
 * Throws {@link WorkspaceBoundaryError} (`path_outside_workspace`) or `invalid_path`.
 */
export function resolveWorkspacePath(
  workspaceRoot: string,
  requested: unknown,
  options: ResolveWorkspacePathOptions = {},
): WorkspacePath {
  assertPathShape(requested);
  const root = resolveWorkspaceRoot(workspaceRoot);
  const lexical = lexicalAbsolute(workspaceRoot, root, requested);
  if (!isInsideFolder(root, lexical)) throw new WorkspaceBoundaryError(requested);
  if (options.forWrite === true && lexical === root) {
    throw invalid('The path names the workspace folder itself; give a file path inside it.', requested);
  }

  const missing: string[] = [];
  let candidate = lexical;
  for (;;) {
    let real: string;
    try {
      real = realpathSync.native(candidate);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ELOOP')
        throw invalid(`The path goes through a symlink loop: ${requested}. Give a path that does not.`, requested);
      if (code !== 'ENOENT' && code !== 'ENOTDIR')
        throw invalid(`The path cannot be resolved (${code ?? 'unknown error'}): ${requested}`, requested);
      refuseDanglingLink(root, candidate, requested);
      missing.unshift(basename(candidate));
      candidate = dirname(candidate);
      continue;
    }
    if (!isInsideFolder(root, real)) throw new WorkspaceBoundaryError(requested);
    if (missing.length > 0 && !statSync(real).isDirectory()) {
      throw new WorkspaceFsError(
        WORKSPACE_FS_ERROR_CODES.fileNotFound,
        `A parent of the path is a file, not a folder: ${toWorkspaceRelative(root, real)}. Check the path.`,
        { path: requested },
      );
    }
    const full = missing.length === 0 ? real : join(real, ...missing);
    return {
      root,
      requested,
      lexical,
      real: full,
      relative: toWorkspaceRelative(root, full),
      exists: missing.length === 0,
      missingSegments: missing.length,
    };
  }
}

/**
 * Something exists at `candidate` yet has no real path: a dangling symlink. Refused as outside
 * when it points outside (a write through it would land there), else as a link to nothing.
 */
function refuseDanglingLink(root: string, candidate: string, requested: string): void {
  let target: string;
  try {
    if (!lstatSync(candidate).isSymbolicLink()) return;
    target = resolve(dirname(candidate), readlinkSync(candidate));
  } catch {
    return;
  }
  if (!isInsideFolder(root, target)) throw new WorkspaceBoundaryError(requested);
  throw new WorkspaceFsError(
    WORKSPACE_FS_ERROR_CODES.fileNotFound,
    `The path goes through a symlink whose target does not exist: ${requested}. Tools never create files through a symlink; use the link's target path.`,
    { path: requested },
  );
}
