import { lstatSync, statSync } from 'node:fs';
import { posix } from 'node:path';
import { PROTECTED_PATHS } from '@clawsmith/tool-protocol';

/** The first segments of the protected list: what a root-level protected path can be named. */
const ROOT_PROTECTED_NAMES = [...new Set(PROTECTED_PATHS.map((entry) => entry.path.split('/')[0] as string))];

/**
 * A key is trusted only while the root folder's times are this much older than the key: file
 * times come from a coarse clock, so an entry made in the same tick as the key keeps them.
 */
const SETTLED_MS = 2_000;

interface KnownKey {
  readonly key: string;
  readonly ino: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly computedAtMs: number;
}

/**
 * Which root-level protected paths of a workspace exist (and which are symbolic links), as a
 * short key: when it changes (`git init` made a `.git`), the wall's helper is started again so
 * that its read-only binds cover the new path. Asked before every batch, so it is remembered
 * while the root folder's inode, mtime and ctime are unchanged and settled (making, removing or
 * renaming an entry of the folder changes its mtime; nobody can set ctime back): one `stat`
 * instead of one `lstat` per protected name.
 */
export class RootProtectedKeys {
  readonly #paths = new Map<string, readonly string[]>();
  readonly #known = new Map<string, KnownKey>();

  /** The key of `workspace` (a real path) now. */
  of(workspace: string): string {
    const root = statSync(workspace, { throwIfNoEntry: false });
    const known = this.#known.get(workspace);
    if (
      root !== undefined &&
      known !== undefined &&
      known.ino === root.ino &&
      known.mtimeMs === root.mtimeMs &&
      known.ctimeMs === root.ctimeMs &&
      known.computedAtMs - Math.max(root.mtimeMs, root.ctimeMs) > SETTLED_MS
    )
      return known.key;
    const computedAtMs = Date.now();
    const key = this.#compute(workspace);
    if (root !== undefined)
      this.#known.set(workspace, { key, ino: root.ino, mtimeMs: root.mtimeMs, ctimeMs: root.ctimeMs, computedAtMs });
    return key;
  }

  #compute(workspace: string): string {
    let paths = this.#paths.get(workspace);
    if (paths === undefined)
      this.#paths.set(workspace, (paths = ROOT_PROTECTED_NAMES.map((name) => posix.join(workspace, name))));
    // An absent name must not throw: an exception's stack costs more than the lstat itself.
    let key = '';
    for (const path of paths) {
      try {
        const found = lstatSync(path, { throwIfNoEntry: false });
        key += found === undefined ? '-' : found.isSymbolicLink() ? 'l' : 'e';
      } catch {
        key += '-';
      }
    }
    return key;
  }
}
