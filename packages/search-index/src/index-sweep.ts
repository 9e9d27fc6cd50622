// The full freshness check, run in the index thread when watching is not possible.
import { lstatSync } from 'node:fs';
import type { SweepRequest } from './index-thread-protocol.js';
import { FILE_FLAG } from './stored-index.js';

/**
 * Compares every stored file and folder with the disk (`lstat`, never following a link). A path
 * whose inode, size or times differ, or whose times were too recent when it was indexed to tell
 * two changes apart, is reported as changed.
 */
export function sweepStoredIndex({ root, files, fileStats, fileFlags, folders, folderStats }: SweepRequest): string[] {
  const changed: string[] = [];
  for (let index = 0; index < folders.length; index += 1) {
    const relative = folders[index]!;
    const stats = lstatSync(relative === '' ? root : `${root}/${relative}`, { throwIfNoEntry: false });
    if (
      !stats ||
      !stats.isDirectory() ||
      stats.ino !== folderStats[index * 3] ||
      stats.mtimeMs !== folderStats[index * 3 + 1] ||
      stats.ctimeMs !== folderStats[index * 3 + 2]
    )
      changed.push(relative);
  }
  for (let index = 0; index < files.length; index += 1) {
    const relative = files[index]!;
    if ((fileFlags[index]! & FILE_FLAG.settled) === 0) {
      changed.push(relative);
      continue;
    }
    const stats = lstatSync(`${root}/${relative}`, { throwIfNoEntry: false });
    if (
      !stats ||
      !stats.isFile() ||
      stats.ino !== fileStats[index * 4] ||
      stats.size !== fileStats[index * 4 + 1] ||
      stats.mtimeMs !== fileStats[index * 4 + 2] ||
      stats.ctimeMs !== fileStats[index * 4 + 3]
    )
      changed.push(relative);
  }
  return changed;
}
