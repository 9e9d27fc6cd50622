import micromatch from 'micromatch';

/**
 * The paths permission rules deny to one search or glob call (`context.excludedPaths`): files
 * and whole folders that match are left out, counted, and named in the result.
 */
export class PathExclusion {
  private readonly test: ((path: string) => boolean) | undefined;
  /** Files and folders left out so far. */
  count = 0;

  constructor(private readonly globs: readonly string[] = []) {
    // Case is ignored: a deny rule must also cover `Secrets/` on a case-insensitive disk.
    const matchers = globs.map((glob) => micromatch.matcher(glob, { dot: true, nocase: true }));
    this.test = matchers.length > 0 ? (path) => matchers.some((matches) => matches(path)) : undefined;
  }

  /** Whether the workspace-relative `path` (file or folder) is left out; counts it when so. */
  excludes(path: string): boolean {
    if (!this.test || path === '' || !this.test(path)) return false;
    this.count += 1;
    return true;
  }

  /** The sentence for the result, or undefined when nothing was left out. */
  note(): string | undefined {
    if (this.count === 0) return undefined;
    return `Left out by permission rules: ${this.count} path${this.count === 1 ? '' : 's'} matching ${this.globs.join(', ')}.`;
  }
}
