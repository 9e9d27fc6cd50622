import { copyFileSync, linkSync, mkdirSync, readdirSync, readlinkSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

/** Options of {@link linkTree}. */
export interface LinkTreeOptions {
  /** Entries left out, folders with everything below them (given the source path). */
  readonly skip?: (source: string) => boolean;
  /** Files copied rather than linked, because someone will rewrite them in place (given the source path). */
  readonly copy?: (source: string) => boolean;
}

/**
 * Recreates the tree under `source` at `target` with each file hard-linked, not copied: the same
 * bytes under a path of its own, so Node resolves a package placed this way from where it lies
 * (a symbolic link would make it resolve from where the link points), at the price of a directory
 * entry instead of a copy of the data (copying the packed packages cost about 1.5 s of processor
 * time and 10 s on a busy disk each time they were installed). A file that is rewritten in place
 * shows the change under every link: whatever will be rewritten must be listed in `copy`. Across
 * file systems, where no hard link can be made, files are copied.
 */
export function linkTree(source: string, target: string, options: LinkTreeOptions = {}): void {
  mkdirSync(target, { recursive: true });
  for (const entry of readdirSync(source, { withFileTypes: true })) {
    const from = join(source, entry.name);
    const to = join(target, entry.name);
    if (options.skip?.(from)) continue;
    if (entry.isDirectory()) linkTree(from, to, options);
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
    else if (options.copy?.(from)) copyFileSync(from, to);
    else linkOrCopy(from, to);
  }
}

function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    copyFileSync(from, to);
  }
}
