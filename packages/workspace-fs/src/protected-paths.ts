import micromatch from 'micromatch';

/**
 * Paths that write tools refuse to create or change, matched case-insensitively against the
 * workspace-relative path: version-control internals at any depth (a planted hook runs on the
 * next commit), clawsmith's own config, shell startup files, and editor folders whose tasks run
 * when the folder is opened.
 */
export const DEFAULT_PROTECTED_PATHS: readonly string[] = Object.freeze([
  '**/.git',
  '**/.git/**',
  '**/.gitmodules',
  '**/.husky/**',
  '**/.clawsmith',
  '**/.clawsmith/**',
  '**/.bashrc',
  '**/.bash_profile',
  '**/.bash_login',
  '**/.bash_logout',
  '**/.profile',
  '**/.zshrc',
  '**/.zshenv',
  '**/.zprofile',
  '**/.zlogin',
  '**/.zlogout',
  '**/.cshrc',
  '**/.tcshrc',
  '**/.kshrc',
  '**/.envrc',
  '**/.config/fish/**',
  '**/.vscode/**',
  '**/.idea/**',
  '**/.zed/**',
]);

const MATCH_OPTIONS = { dot: true, nocase: true } as const;

/** A compiled list of protected-path globs. */
export interface ProtectedPathMatcher {
  /** The glob that protects `relativePath` (workspace-relative, `/` separators), if any. */
  match(relativePath: string): string | undefined;
}

/** Compiles the default protected paths plus `extra` globs into a matcher. */
export function createProtectedPathMatcher(extra: readonly string[] = []): ProtectedPathMatcher {
  const patterns = [...DEFAULT_PROTECTED_PATHS, ...extra];
  const matchers = patterns.map((pattern) => ({ pattern, test: micromatch.matcher(pattern, MATCH_OPTIONS) }));
  return {
    match(relativePath) {
      const path = relativePath.replaceAll('\\', '/').replace(/^\.\//, '');
      return matchers.find((matcher) => matcher.test(path))?.pattern;
    },
  };
}

/**
 * Whether a write tool must refuse `relativePath` (workspace-relative): it matches one of the
 * default protected paths or one of `extra`, ignoring case.
 */
export function isProtectedPath(relativePath: string, extra: readonly string[] = []): boolean {
  return createProtectedPathMatcher(extra).match(relativePath) !== undefined;
}
