import { PROTECTED_PATHS, protectedPathGlobs } from '@clawsmith/tool-protocol';
import micromatch from 'micromatch';

/**
 * Paths that write tools refuse to create or change, as globs matched case-insensitively against
 * the workspace-relative path: the one list `PROTECTED_PATHS` of tool-protocol (version-control
 * internals at any depth, clawsmith's own config, shell startup files, editor folders that run
 * tasks), which the command sandbox mounts read-only too.
 */
export const PROTECTED_PATH_GLOBS: readonly string[] = Object.freeze(protectedPathGlobs(PROTECTED_PATHS));

const MATCH_OPTIONS = { dot: true, nocase: true } as const;

/** A compiled list of protected-path globs. */
export interface ProtectedPathMatcher {
  /** The glob that protects `relativePath` (workspace-relative, `/` separators), if any. */
  match(relativePath: string): string | undefined;
}

/** Compiles the default protected paths plus `extra` globs into a matcher. */
export function createProtectedPathMatcher(extra: readonly string[] = []): ProtectedPathMatcher {
  const patterns = [...PROTECTED_PATH_GLOBS, ...extra];
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
