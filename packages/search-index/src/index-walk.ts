// The index's walk: the same rules as `walkWorkspace` (names in code-unit order, skipped folder
// names never entered, symlinks and special files never followed), synchronous because it runs in
// the index thread where nothing else waits, and recording each folder's figures for the sweep.
import { lstatSync, readdirSync, type Dirent } from 'node:fs';

/** A regular file the walk yields, in walk order. */
export interface WalkedFile {
  /** Workspace-relative path. */
  readonly relative: string;
  readonly absolute: string;
  /** The last name of the path (search matches names). */
  readonly name: string;
}

/** A folder the walk entered, with the `lstat` figures the sweep compares later. */
export interface WalkedFolder {
  /** Workspace-relative path ('' is the root). */
  readonly relative: string;
  readonly ino: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

/** What one walk found, both lists in walk order. */
export interface IndexWalk {
  readonly files: WalkedFile[];
  readonly folders: WalkedFolder[];
}

function byName(left: Dirent, right: Dirent): number {
  return left.name < right.name ? -1 : left.name > right.name ? 1 : 0;
}

/**
 * Walks `root` depth-first in code-unit order of names, as walkWorkspace does; `onFile` is told
 * the count of files found so far after each one.
 */
export function walkForIndex(root: string, skipped: ReadonlySet<string>, onFile?: (found: number) => void): IndexWalk {
  const files: WalkedFile[] = [];
  const folders: WalkedFolder[] = [];
  const visit = (absolute: string, relative: string): void => {
    let entries: Dirent[];
    try {
      const stats = lstatSync(absolute);
      if (!stats.isDirectory()) return;
      folders.push({ relative, ino: stats.ino, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs });
      entries = readdirSync(absolute, { withFileTypes: true }).sort(byName);
    } catch {
      return;
    }
    for (const entry of entries) {
      const name = entry.name;
      const childRelative = relative === '' ? name : `${relative}/${name}`;
      const childAbsolute = `${absolute}/${name}`;
      let isFile = entry.isFile();
      let isFolder = entry.isDirectory();
      if (!isFile && !isFolder && !isOtherKnownType(entry)) {
        // The file system did not say (DT_UNKNOWN): ask without following a link.
        try {
          const stats = lstatSync(childAbsolute);
          isFile = stats.isFile();
          isFolder = stats.isDirectory();
        } catch {
          continue;
        }
      }
      if (isFile) {
        files.push({ relative: childRelative, absolute: childAbsolute, name });
        onFile?.(files.length);
      } else if (isFolder && !skipped.has(name)) visit(childAbsolute, childRelative);
    }
  };
  visit(root, '');
  return { files, folders };
}

function isOtherKnownType(entry: Dirent): boolean {
  return (
    entry.isSymbolicLink() || entry.isFIFO() || entry.isSocket() || entry.isBlockDevice() || entry.isCharacterDevice()
  );
}

/** The files' relative paths in one string, cheap to send to another thread ('\0' is in no name). */
export function joinedPaths(files: readonly WalkedFile[]): string {
  return files.map((file) => file.relative).join('\0');
}

/** The files {@link joinedPaths} sent, under `root`. */
export function walkedFiles(root: string, joined: string): WalkedFile[] {
  if (joined === '') return [];
  return joined.split('\0').map((relative) => ({
    relative,
    absolute: `${root}/${relative}`,
    name: relative.slice(relative.lastIndexOf('/') + 1),
  }));
}
