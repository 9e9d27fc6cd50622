import { lstatSync, readdirSync } from 'node:fs';

/** What a folder entry is, as far as its listing says. */
export const ENTRY_KIND = { unknown: 0, file: 1, folder: 2, other: 3 } as const;

/** One folder's entries in code-unit order of names, with their kinds. */
export interface FolderListing {
  readonly names: readonly string[];
  /** {@link ENTRY_KIND} of each name. */
  readonly kinds: Uint8Array;
  /** Regular files among the entries. */
  readonly files: number;
}

interface KeptListing extends FolderListing {
  readonly dev: number;
  readonly ino: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

function byName(left: { name: string }, right: { name: string }): number {
  return left.name < right.name ? -1 : left.name > right.name ? 1 : 0;
}

/**
 * Lists folders for search and glob, keeping each sorted listing while its folder is unchanged:
 * creating, removing or renaming an entry (a file swapped for a symlink included) changes the
 * folder's modification and change times, so a kept listing is used only while the folder's
 * `lstat` still shows the same device, inode and both times. A folder changed within the last
 * `settledMs` is never kept, because two changes within one tick of the file system's clock can
 * leave the same times. Each folder is checked with `lstat` before it is listed: a folder swapped
 * for a symlink is not entered.
 */
export class FolderListings {
  private readonly kept = new Map<string, KeptListing>();
  private keptEntries = 0;

  constructor(
    private readonly maxEntries = 100_000,
    private readonly settledMs = 2_000,
  ) {}

  /** The folder's listing, or undefined when it is not a folder (any more) or cannot be listed. */
  list(absolute: string): FolderListing | undefined {
    const now = Date.now();
    let stats;
    try {
      stats = lstatSync(absolute);
    } catch {
      return undefined;
    }
    if (!stats.isDirectory()) return undefined;
    const kept = this.kept.get(absolute);
    if (
      kept &&
      kept.dev === stats.dev &&
      kept.ino === stats.ino &&
      kept.mtimeMs === stats.mtimeMs &&
      kept.ctimeMs === stats.ctimeMs
    )
      return kept;
    if (kept) {
      this.kept.delete(absolute);
      this.keptEntries -= kept.names.length;
    }
    let entries;
    try {
      entries = readdirSync(absolute, { withFileTypes: true }).sort(byName);
    } catch {
      return undefined;
    }
    const names = new Array<string>(entries.length);
    const kinds = new Uint8Array(entries.length);
    let files = 0;
    for (let index = 0; index < entries.length; index += 1) {
      const entry = entries[index]!;
      names[index] = entry.name;
      if (entry.isFile()) {
        kinds[index] = ENTRY_KIND.file;
        files += 1;
      } else if (entry.isDirectory()) kinds[index] = ENTRY_KIND.folder;
      else if (
        entry.isSymbolicLink() ||
        entry.isFIFO() ||
        entry.isSocket() ||
        entry.isBlockDevice() ||
        entry.isCharacterDevice()
      )
        kinds[index] = ENTRY_KIND.other;
    }
    const listing: KeptListing = {
      names,
      kinds,
      files,
      dev: stats.dev,
      ino: stats.ino,
      mtimeMs: stats.mtimeMs,
      ctimeMs: stats.ctimeMs,
    };
    if (Math.max(stats.mtimeMs, stats.ctimeMs) < now - this.settledMs) {
      if (this.keptEntries + names.length > this.maxEntries) {
        this.kept.clear();
        this.keptEntries = 0;
      }
      if (names.length <= this.maxEntries) {
        this.kept.set(absolute, listing);
        this.keptEntries += names.length;
      }
    }
    return listing;
  }
}
