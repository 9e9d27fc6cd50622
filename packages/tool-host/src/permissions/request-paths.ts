import { posix } from 'node:path';
import type { ToolPathArgument } from '@clawsmith/tool-protocol';
import { patchedPaths, resolveWorkspacePath } from '@clawsmith/workspace-fs';
import micromatch from 'micromatch';

/**
 * One path a call touches, as permission rules see it: `forms` are the workspace-relative paths
 * (`/` separators, `''` for the root) the tool will resolve it to, lexically and through symlinks,
 * or the normalised text when it cannot be resolved inside the workspace (the tool refuses it).
 * A `scope` is a folder whose whole subtree the call reads.
 */
export interface RequestPath {
  readonly role: 'target' | 'scope';
  readonly forms: readonly string[];
}

/** The input fields taken as target paths when a tool declares none. */
export const DEFAULT_PATH_ARGUMENTS: readonly ToolPathArgument[] = Object.freeze(
  ['path', 'from', 'to', 'source', 'target', 'destination'].map((name) => ({ name, role: 'target' as const })),
);

function lexicalForm(text: string): string {
  const normalized = posix.normalize(text.replaceAll('\\', '/')).replace(/\/+$/, '');
  return normalized === '.' ? '' : normalized.replace(/^\.\//, '');
}

function forms(text: string, workspaceRoot: string | undefined): string[] {
  if (workspaceRoot === undefined) return [lexicalForm(text)];
  try {
    const path = resolveWorkspacePath(workspaceRoot, text === '' ? '.' : text);
    const lexical = posix.relative(path.root, path.lexical.replaceAll('\\', '/'));
    return [...new Set([lexical, path.relative])];
  } catch {
    return [lexicalForm(text)];
  }
}

/**
 * The paths `input` names, resolved as the workspace file tools resolve them (the same boundary
 * function: `..`, `.`, absolute paths inside the workspace and symlinks). A scope argument that
 * is absent is the workspace root; a glob's scope is its folder prefix.
 */
export function requestPaths(
  pathArguments: readonly ToolPathArgument[] | undefined,
  input: unknown,
  workspaceRoot?: string,
): RequestPath[] {
  const fields = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const paths: RequestPath[] = [];
  for (const argument of pathArguments ?? DEFAULT_PATH_ARGUMENTS) {
    const value = fields[argument.name];
    if (argument.role === 'target') {
      if (typeof value === 'string') paths.push({ role: 'target', forms: forms(value, workspaceRoot) });
    } else if (argument.role === 'patch') {
      // The same parser as the tool's: a patch that cannot be parsed is refused by the tool before it writes.
      for (const path of typeof value === 'string' ? patchedPaths(value) : [])
        paths.push({ role: 'target', forms: forms(path, workspaceRoot) });
    } else if (argument.role === 'scope') {
      paths.push({ role: 'scope', forms: forms(typeof value === 'string' ? value : '.', workspaceRoot) });
    } else if (typeof value === 'string') {
      const base = micromatch.scan(value).base;
      paths.push({ role: 'scope', forms: forms(base === '' ? '.' : base, workspaceRoot) });
    }
  }
  return paths;
}
