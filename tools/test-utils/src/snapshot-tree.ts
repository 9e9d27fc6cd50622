import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';

/**
 * A byte-exact description of a folder tree: each entry's relative path mapped to its kind and a
 * SHA-256 of its bytes (files), its link target (symlinks) or nothing (folders). Compare two
 * snapshots to prove that a refused operation changed nothing.
 */
export function snapshotTree(root: string): Record<string, string> {
  const entries: Record<string, string> = {};
  const walk = (folder: string, prefix: string): void => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      const relative = prefix ? `${prefix}/${name}` : name;
      const stats = lstatSync(path);
      if (stats.isSymbolicLink()) {
        entries[relative] = `link:${readlinkSync(path)}`;
      } else if (stats.isDirectory()) {
        entries[relative] = `dir:${(stats.mode & 0o7777).toString(8)}`;
        walk(path, relative);
      } else if (stats.isFile()) {
        const digest = createHash('sha256').update(readFileSync(path)).digest('hex');
        entries[relative] = `file:${(stats.mode & 0o7777).toString(8)}:${digest}`;
      } else {
        entries[relative] = 'special';
      }
    }
  };
  walk(root, '');
  return entries;
}
