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

function byName(left: Dirent, right: Dirent): number {
  return left.name < right.name ? -1 : left.name > right.name ? 1 : 0;
}

/** More files than any walk finds, and a small integer (2^30 - 1) like every other count. */
const EVERY_FILE = 0x3fffffff;

/** A folder being listed: its entries, sorted, and the next one to look at. */
interface ListedFolder {
  readonly absolute: string;
  readonly relative: string;
  readonly entries: Dirent[];
  next: number;
}

/**
 * Walks `root` depth-first in code-unit order of names, as walkWorkspace does, a stretch at a
 * time ({@link IndexWalker.walkUntil}), so a build can start a thread once enough files are found
 * without a callback in the walk's loop (V8 optimizes that loop early, and a path in it first
 * taken later, such as starting a thread, threw the code away and compiled it again).
 */
export class IndexWalker {
  /** The files found so far, in walk order. */
  readonly files: WalkedFile[] = [];
  /** The folders entered so far, in walk order. */
  readonly folders: WalkedFolder[] = [];
  private readonly listing: ListedFolder[] = [];

  constructor(
    root: string,
    private readonly skipped: ReadonlySet<string>,
  ) {
    this.enter(root, '');
  }

  /**
   * Walks on until `count` files are found or the walk ends; returns whether it goes on. Counts
   * are small integers (V8 compares them as such: see {@link IndexWalker.walkAll}).
   */
  walkUntil(count: number): boolean {
    const { files, listing } = this;
    // Left only by a return, whose path needs nothing V8 has to have seen before it optimizes
    // the loop (the walk is one long call).
    for (;;) {
      if (listing.length === 0) return false;
      if (files.length >= count) return true;
      const folder = listing[listing.length - 1]!;
      if (folder.next === folder.entries.length) {
        listing.pop();
        continue;
      }
      const entry = folder.entries[folder.next++]!;
      const name = entry.name;
      const childRelative = folder.relative === '' ? name : `${folder.relative}/${name}`;
      const childAbsolute = `${folder.absolute}/${name}`;
      let isFile = entry.isFile();
      let isFolder = entry.isDirectory();
      // Asked of every entry, not only of the rare one that is neither (a link, mostly).
      const otherKnown = isOtherKnownType(entry);
      if (!isFile && !isFolder && !otherKnown) {
        // The file system did not say (DT_UNKNOWN): ask without following a link.
        try {
          const stats = lstatSync(childAbsolute);
          isFile = stats.isFile();
          isFolder = stats.isDirectory();
        } catch {
          continue;
        }
      }
      if (isFile) files.push({ relative: childRelative, absolute: childAbsolute, name });
      else if (isFolder && !this.skipped.has(name)) this.enter(childAbsolute, childRelative);
    }
  }

  /** Walks to the end. */
  walkAll(): void {
    this.walkUntil(EVERY_FILE);
  }

  // Records a folder and lists it next (one that is gone or not a folder is passed over).
  private enter(absolute: string, relative: string): void {
    let entries: Dirent[];
    try {
      const stats = lstatSync(absolute);
      if (!stats.isDirectory()) return;
      this.folders.push({ relative, ino: stats.ino, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs });
      entries = readdirSync(absolute, { withFileTypes: true }).sort(byName);
    } catch {
      return;
    }
    this.listing.push({ absolute, relative, entries, next: 0 });
  }
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
