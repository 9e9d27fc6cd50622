import { lstatSync } from 'node:fs';
import type { ToolExecutionContext } from '@clawsmith/tool-protocol';
import { enclosingGitFolder } from './git-folder.js';
import { resolveWorkspacePath, toWorkspaceRelative, type WorkspacePath } from './path-boundary.js';
import type { ResolvedToolOptions } from './tool-options.js';
import { ProtectedPathError, WORKSPACE_FS_ERROR_CODES, WorkspaceFsError } from './workspace-fs-error.js';

/**
 * Resolves a path a write tool will create or change: inside the workspace (both checks), and
 * not protected by name, neither as written nor as it resolves (a symlink to `.git` is caught),
 * and not inside a git folder of any name (the `.bare` that a `.git` file points to).
 */
export function resolveWritablePath(
  options: ResolvedToolOptions,
  context: ToolExecutionContext,
  requested: unknown,
): WorkspacePath {
  const path = resolveWorkspacePath(options.rootFor(context), requested, { forWrite: true });
  for (const candidate of [toWorkspaceRelative(path.root, path.lexical), path.relative]) {
    const pattern = options.protectedPaths.match(candidate);
    if (pattern !== undefined) throw new ProtectedPathError(path.requested, pattern);
  }
  const gitFolder = enclosingGitFolder(path.root, path.real);
  if (gitFolder !== undefined) throw new ProtectedPathError(path.requested, `the git folder ${gitFolder}`);
  return path;
}

/** Whether anything at all (a dangling symlink included) sits at the lexical path. */
export function somethingAt(path: WorkspacePath): boolean {
  try {
    lstatSync(path.lexical);
    return true;
  } catch {
    return path.exists;
  }
}

/** Throws unless `path` is free for a new file whose parent folder exists. */
export function assertFreeTarget(path: WorkspacePath, hint: string): void {
  if (somethingAt(path)) {
    throw new WorkspaceFsError(WORKSPACE_FS_ERROR_CODES.fileExists, `${path.requested} already exists; ${hint}`, {
      path: path.requested,
    });
  }
  if (path.missingSegments > 1) {
    const parent = path.relative.split('/').slice(0, -1).join('/');
    throw new WorkspaceFsError(
      WORKSPACE_FS_ERROR_CODES.fileNotFound,
      `The parent folder ${parent} does not exist; file tools do not create folders. Use an existing folder (glob_files lists them).`,
      { path: path.requested },
    );
  }
}

/** Throws unless the path itself (not a symlink to it) is a regular file. */
export function assertNotSymlink(path: WorkspacePath, action: string): void {
  if (lstatSync(path.lexical, { throwIfNoEntry: false })?.isSymbolicLink()) {
    throw new WorkspaceFsError(
      WORKSPACE_FS_ERROR_CODES.notAFile,
      `Cannot ${action} ${path.requested}: it is a symbolic link, and this tool handles regular files only. Use the link's target path (${path.relative}).`,
      { path: path.requested },
    );
  }
}
