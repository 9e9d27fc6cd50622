import { protectedPathEntry } from '@clawsmith/tool-protocol';

/**
 * Whether workspace-relative `path` falls under one of the written protected paths (a trailing
 * `/` marks a folder; a path without it protects itself and anything below it).
 */
export function protectedPathMatcher(written: readonly string[]): {
  readonly isProtected: (path: string) => boolean;
  readonly mountPoints: ReadonlySet<string>;
} {
  const roots = written.map((entry) => entry.replace(/\/+$/, '')).filter((entry) => entry.length > 0);
  return {
    // The one protected list applies at any depth (`vendor/lib/.git/config`), as in the file tools.
    isProtected: (path) =>
      roots.some((root) => path === root || path.startsWith(`${root}/`)) || protectedPathEntry(path) !== undefined,
    mountPoints: new Set(roots),
  };
}
