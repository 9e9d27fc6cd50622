import micromatch from 'micromatch';

/**
 * The paths permission rules deny to one search or glob call (`context.excludedPaths`): files
 * and whole folders that match are left out, counted, and named in the result.
 */
export class PathExclusion {
  private readonly matchers: readonly { readonly glob: string; readonly matches: (path: string) => boolean }[];
  private readonly matched = new Set<string>();
  /** Files and folders left out so far. */
  count = 0;

  constructor(globs: readonly string[] = []) {
    // Case is ignored: a deny rule must also cover `Secrets/` on a case-insensitive disk.
    this.matchers = globs.map((glob) => ({ glob, matches: micromatch.matcher(glob, { dot: true, nocase: true }) }));
  }

  /** Whether the workspace-relative `path` (file or folder) is left out; counts it when so. */
  excludes(path: string): boolean {
    if (this.matchers.length === 0 || path === '') return false;
    const matcher = this.matchers.find(({ matches }) => matches(path));
    if (!matcher) return false;
    this.matched.add(matcher.glob);
    this.count += 1;
    return true;
  }

  /** The sentence for the result (naming the globs that left something out), or undefined when nothing was. */
  note(): string | undefined {
    if (this.count === 0) return undefined;
    return `Left out by permission rules: ${this.count} path${this.count === 1 ? '' : 's'} matching ${[...this.matched].join(', ')}.`;
  }
}
