import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Entries a before/after walk looks at, at most, when a command's changes cannot be captured. */
export const STAT_WALK_LIMIT = 20_000;

/** What a bounded stat walk saw: one fingerprint per path, and whether it saw everything. */
export interface StatWalk {
  readonly entries: ReadonlyMap<string, string>;
  /** False when the walk stopped at its limit: changes beyond it are not seen. */
  readonly complete: boolean;
}

/**
 * Fingerprints (kind, size, mode, modification and change time, inode) of the workspace's
 * entries, breadth first, without following links, stopping after `limit` entries. Folders
 * are descended whatever their name: a command's changes under `node_modules` count too.
 */
export function statWalk(root: string, limit = STAT_WALK_LIMIT): StatWalk {
  const entries = new Map<string, string>();
  const queue: string[] = [''];
  while (queue.length > 0) {
    const relative = queue.shift()!;
    let names: string[];
    try {
      names = readdirSync(relative === '' ? root : join(root, relative));
    } catch {
      continue;
    }
    for (const name of names) {
      if (entries.size >= limit) return { entries, complete: false };
      const path = relative === '' ? name : `${relative}/${name}`;
      let stats;
      try {
        stats = lstatSync(join(root, path));
      } catch {
        continue;
      }
      const kind = stats.isDirectory() ? 'd' : stats.isSymbolicLink() ? 'l' : stats.isFile() ? 'f' : 'o';
      // A folder's own times change with every entry made in it: its children tell the story.
      entries.set(
        path,
        kind === 'd'
          ? `d:${stats.mode}:${stats.ino}`
          : `${kind}:${stats.size}:${stats.mode}:${stats.mtimeMs}:${stats.ctimeMs}:${stats.ino}`,
      );
      if (kind === 'd') queue.push(path);
    }
  }
  return { entries, complete: true };
}

/** Paths that appeared, disappeared or changed between two walks, sorted. */
export function changedBetween(before: StatWalk, after: StatWalk): string[] {
  const changed = new Set<string>();
  for (const [path, fingerprint] of after.entries) if (before.entries.get(path) !== fingerprint) changed.add(path);
  for (const path of before.entries.keys()) if (!after.entries.has(path) && after.complete) changed.add(path);
  return [...changed].sort();
}
