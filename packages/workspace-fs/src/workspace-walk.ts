import { lstatSync } from 'node:fs';
import { ENTRY_KIND, type FolderListing, type FolderListings } from './folder-listings.js';

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
  readonly listing: FolderListing;
  index: number;
}

/** Options of {@link walkWorkspace}. */
export interface WalkOptions {
  /** Folder names never entered below the start folder. */
  readonly skippedFolders: ReadonlySet<string>;
  /** Whether to enter a folder (workspace-relative); default yes. */
  readonly enterFolder?: (relative: string) => boolean;
  /** Where folders are listed (and listings of unchanged folders kept). */
  readonly listings: FolderListings;
}

const EMPTY: FolderListing = { names: [], kinds: new Uint8Array(0), files: 0 };

function list(absolute: string, listings: FolderListings, counts: WalkCounts): FolderListing {
  const listing = listings.list(absolute);
  if (listing === undefined) {
    counts.unreadableFolders += 1;
    return EMPTY;
  }
  counts.entries += listing.names.length;
  // Files are counted when listed, not when reached: a search that stops early says how many it left.
  counts.files += listing.files;
  return listing;
}

/**
 * Yields the regular files below `start` depth-first in code-unit order of names, so the same
 * tree always gives the same order. Symlinks are never followed, special files never yielded,
 * skipped folders never entered. Listing is synchronous: a loop of awaited directory reads costs
 * ten times more on a large tree.
 */
export function* walkWorkspace(
  start: { absolute: string; relative: string },
  options: WalkOptions,
  counts: WalkCounts,
): Generator<WalkedFile> {
  const { listings } = options;
  const stack: PendingFolder[] = [
    { absolute: start.absolute, relative: start.relative, listing: list(start.absolute, listings, counts), index: 0 },
  ];
  while (stack.length > 0) {
    const folder = stack[stack.length - 1]!;
    const index = folder.index;
    const name = folder.listing.names[index];
    if (name === undefined) {
      stack.pop();
      continue;
    }
    folder.index += 1;
    let kind = folder.listing.kinds[index];
    const relative = folder.relative === '' ? name : `${folder.relative}/${name}`;
    if (kind === ENTRY_KIND.unknown) {
      // Some file systems do not report entry types; ask without following a link.
      try {
        const stats = lstatSync(`${folder.absolute}/${name}`);
        kind = stats.isFile() ? ENTRY_KIND.file : stats.isDirectory() ? ENTRY_KIND.folder : ENTRY_KIND.other;
        if (kind === ENTRY_KIND.file) counts.files += 1;
      } catch {
        continue;
      }
    }
    if (kind === ENTRY_KIND.file) {
      yield new ListedFile(folder.absolute, relative, name);
    } else if (kind === ENTRY_KIND.folder) {
      if (options.skippedFolders.has(name)) {
        counts.skippedFolders += 1;
        continue;
      }
      if (options.enterFolder && !options.enterFolder(relative)) continue;
      const absolute = `${folder.absolute}/${name}`;
      stack.push({ absolute, relative, listing: list(absolute, listings, counts), index: 0 });
    } else {
      counts.passedOver += 1;
    }
  }
}

/** Fresh zeroed {@link WalkCounts}. */
export function newWalkCounts(): WalkCounts {
  return { entries: 0, files: 0, passedOver: 0, skippedFolders: 0, unreadableFolders: 0 };
}
