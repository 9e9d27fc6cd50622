import { type Dirent, lstatSync, readdirSync } from 'node:fs';

/** A regular file found by {@link walkWorkspace}. */
export interface WalkedFile {
  /** Absolute path (under the real workspace root). */
  readonly absolute: string;
  /** Workspace-relative path with `/` separators. */
  readonly relative: string;
  /** The file's own name. */
  readonly name: string;
}

// The absolute path is built only when asked for: glob never needs it.
class ListedFile implements WalkedFile {
  constructor(
    private readonly folder: string,
    readonly relative: string,
    readonly name: string,
  ) {}

  get absolute(): string {
    return `${this.folder}/${this.name}`;
  }
}

/** Counts kept while walking, for honest reports. */
export interface WalkCounts {
  /** Folder entries listed so far (files, folders, links, special files), yielded or not. */
  entries: number;
  /** Regular files listed so far, yielded or not. */
  files: number;
  /** Symlinks and special files passed over (never followed or opened). */
  passedOver: number;
  /** Skipped folders (node_modules, .git, ...) passed over. */
  skippedFolders: number;
  /** Folders that could not be listed. */
  unreadableFolders: number;
}

interface PendingFolder {
  readonly absolute: string;
  readonly relative: string;
  readonly entries: Dirent[];
  index: number;
}

/** Options of {@link walkWorkspace}. */
export interface WalkOptions {
  /** Folder names never entered below the start folder. */
  readonly skippedFolders: ReadonlySet<string>;
  /** Whether to enter a folder (workspace-relative); default yes. */
  readonly enterFolder?: (relative: string) => boolean;
}

function byName(left: Dirent, right: Dirent): number {
  return left.name < right.name ? -1 : left.name > right.name ? 1 : 0;
}

function list(absolute: string, counts: WalkCounts): Dirent[] {
  try {
    const entries = readdirSync(absolute, { withFileTypes: true }).sort(byName);
    counts.entries += entries.length;
    // Files are counted when listed, not when reached: a search that stops early says how many it left.
    for (const entry of entries) if (entry.isFile()) counts.files += 1;
    return entries;
  } catch {
    counts.unreadableFolders += 1;
    return [];
  }
}

/**
 * Yields the regular files below `start` depth-first in code-unit order of names, so the same
 * tree always gives the same order. Symlinks are never followed, special files never yielded,
 * skipped folders never entered. Listing is synchronous: a loop of awaited directory reads costs
 * ten times more on a large tree.
 */
export function* walkWorkspace(start: { absolute: string; relative: string }, options: WalkOptions, counts: WalkCounts): Generator<WalkedFile> {
  const stack: PendingFolder[] = [{ absolute: start.absolute, relative: start.relative, entries: list(start.absolute, counts), index: 0 }];
  while (stack.length > 0) {
    const folder = stack[stack.length - 1]!;
    const entry = folder.entries[folder.index];
    if (entry === undefined) {
      stack.pop();
      continue;
    }
    folder.index += 1;
    const relative = folder.relative === '' ? entry.name : `${folder.relative}/${entry.name}`;
    if (entry.isFile()) {
      yield new ListedFile(folder.absolute, relative, entry.name);
      continue;
    }
    let isFile = false;
    let isDirectory = entry.isDirectory();
    if (!isDirectory && !entry.isSymbolicLink() && !entry.isFIFO() && !entry.isSocket() && !entry.isBlockDevice() && !entry.isCharacterDevice()) {
      // Some file systems do not report entry types; ask without following a link.
      try {
        const stats = lstatSync(`${folder.absolute}/${entry.name}`);
        isFile = stats.isFile();
        isDirectory = stats.isDirectory();
        if (isFile) counts.files += 1;
      } catch {
        continue;
      }
    }
    if (isDirectory) {
      if (options.skippedFolders.has(entry.name)) {
        counts.skippedFolders += 1;
        continue;
      }
      if (options.enterFolder && !options.enterFolder(relative)) continue;
      const absolute = `${folder.absolute}/${entry.name}`;
      stack.push({ absolute, relative, entries: list(absolute, counts), index: 0 });
    } else if (isFile) {
      yield new ListedFile(folder.absolute, relative, entry.name);
    } else {
      counts.passedOver += 1;
    }
  }
}

/** Fresh zeroed {@link WalkCounts}. */
export function newWalkCounts(): WalkCounts {
  return { entries: 0, files: 0, passedOver: 0, skippedFolders: 0, unreadableFolders: 0 };
}
