/**
 * One entry of the protected-path list: a workspace-relative path, matched at any depth (a
 * nested `vendor/lib/.git` is as dangerous as the root one) and ignoring letter case (on a
 * case-insensitive disk `.GIT/config` is `.git/config`).
 */
export interface ProtectedPathEntry {
  /** The path as segments joined by `/`, for example `.git` or `.vscode/tasks.json`. */
  readonly path: string;
  /** `tree`: the path and everything below it; `file`: the path itself. */
  readonly extent: 'tree' | 'file';
  /** Why changing it is dangerous, for refusals and the README. */
  readonly reason: string;
}

const HOOKS = 'runs code when git runs (hooks, config such as core.fsmonitor, where the repository lives)';
const SHELL = 'a shell runs it at startup';
const EDITOR = 'an editor runs tasks or settings from it when the folder is opened';

/**
 * The one list of paths that no tool and no sandboxed command may create or change: version
 * control internals (a planted hook or `core.fsmonitor` runs on the person's next `git status`),
 * clawsmith's own configuration, shell startup files and editor folders that run code when the
 * folder is opened. `workspace-fs` refuses them in write tools; `command-sandbox` mounts them
 * read-only. Both read this list, so they cannot disagree.
 */
export const PROTECTED_PATHS: readonly ProtectedPathEntry[] = Object.freeze(
  (
    [
      ['.git', 'tree', HOOKS],
      ['.gitmodules', 'file', 'tells git where submodules live and which commands update them'],
      ['.husky', 'tree', 'git hooks installed by husky'],
      ['.clawsmith', 'tree', "clawsmith's own configuration and permissions"],
      ['.bashrc', 'file', SHELL],
      ['.bash_profile', 'file', SHELL],
      ['.bash_login', 'file', SHELL],
      ['.bash_logout', 'file', SHELL],
      ['.profile', 'file', SHELL],
      ['.zshrc', 'file', SHELL],
      ['.zshenv', 'file', SHELL],
      ['.zprofile', 'file', SHELL],
      ['.zlogin', 'file', SHELL],
      ['.zlogout', 'file', SHELL],
      ['.cshrc', 'file', SHELL],
      ['.tcshrc', 'file', SHELL],
      ['.kshrc', 'file', SHELL],
      ['.envrc', 'file', 'direnv runs it when a shell enters the folder'],
      ['.config/fish', 'tree', SHELL],
      ['.vscode', 'tree', EDITOR],
      ['.idea', 'tree', EDITOR],
      ['.zed', 'tree', EDITOR],
    ] as const
  ).map(([path, extent, reason]) => Object.freeze({ path, extent, reason })),
);

/**
 * The protected entry that covers `relativePath` (workspace-relative, `/` or `\` separators), or
 * undefined. Matches at any depth and ignoring case: `a/.GIT/hooks/x`, `.vscode/tasks.json`.
 */
export function protectedPathEntry(
  relativePath: string,
  entries: readonly ProtectedPathEntry[] = PROTECTED_PATHS,
): ProtectedPathEntry | undefined {
  const segments = relativePath
    .replaceAll('\\', '/')
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.')
    .map((segment) => segment.toLowerCase());
  for (const entry of entries) {
    const wanted = entry.path.toLowerCase().split('/');
    for (let start = 0; start + wanted.length <= segments.length; start += 1) {
      if (!wanted.every((segment, offset) => segments[start + offset] === segment)) continue;
      if (entry.extent === 'tree' || start + wanted.length === segments.length) return entry;
    }
  }
  return undefined;
}

/** The globs (micromatch syntax) equivalent to `entries`, for tools that match globs. */
export function protectedPathGlobs(entries: readonly ProtectedPathEntry[] = PROTECTED_PATHS): string[] {
  return entries.flatMap((entry) =>
    entry.extent === 'tree' ? [`**/${entry.path}`, `**/${entry.path}/**`] : [`**/${entry.path}`],
  );
}
