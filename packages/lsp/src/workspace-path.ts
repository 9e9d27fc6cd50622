import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LSP_ERROR_CODES, LspError } from './lsp-error.js';

/** A file inside the workspace: its real absolute path and its workspace-relative path (`/`). */
export interface WorkspaceFile {
  readonly absolute: string;
  readonly relative: string;
}

function inside(root: string, absolute: string): boolean {
  const path = relative(root, absolute);
  return path === '' || (!path.startsWith('..') && !isAbsolute(path));
}

function toSlashes(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/**
 * Resolves a path the model gave (workspace-relative or absolute) to an existing regular file
 * inside the workspace. The check runs on the real path too, so a symbolic link cannot lead out.
 */
export function resolveWorkspaceFile(workspaceRoot: string, path: string): WorkspaceFile {
  const absolute = resolve(workspaceRoot, path);
  if (!inside(workspaceRoot, absolute)) throw outside(path);
  let real: string;
  try {
    real = realpathSync(absolute);
  } catch {
    throw new LspError(
      LSP_ERROR_CODES.fileNotFound,
      `${path} does not exist in the workspace; give the path of an existing file, relative to the workspace.`,
    );
  }
  if (!inside(workspaceRoot, real)) throw outside(path);
  if (!statSync(real).isFile()) {
    throw new LspError(LSP_ERROR_CODES.fileNotFound, `${path} is not a regular file; give the path of a source file.`);
  }
  return { absolute: real, relative: toSlashes(relative(workspaceRoot, real)) };
}

function outside(path: string): LspError {
  return new LspError(
    LSP_ERROR_CODES.pathOutsideWorkspace,
    `${path} is outside the workspace; language server tools only read files inside it. Give a path relative to the workspace.`,
  );
}

/**
 * How a location from a server is shown: workspace-relative when inside the workspace, else
 * `(outside the workspace) …/<last three segments>` so host paths are not revealed.
 */
export function displayLocation(workspaceRoot: string, uri: string): { path: string; inWorkspace: boolean } {
  let absolute: string;
  try {
    absolute = fileURLToPath(uri);
  } catch {
    return { path: uri, inWorkspace: false };
  }
  if (inside(workspaceRoot, absolute)) return { path: toSlashes(relative(workspaceRoot, absolute)), inWorkspace: true };
  const tail = toSlashes(absolute).split('/').filter(Boolean).slice(-3).join('/');
  return { path: `(outside the workspace) …/${tail}`, inWorkspace: false };
}
