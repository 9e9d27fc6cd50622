// The figures of one part's files, kept in flat typed arrays rather than an object per file: a
// part of the benchmark corpus made tens of thousands of small objects that lived until the write
// (copied by every young-generation collection on the way) and were cloned one by one when a
// helper thread posted its part; typed arrays are copied whole, and the stored index keeps the
// figures in the same layout.
import { FILE_FLAG } from './stored-index.js';

/** Figures per file in {@link PartFiles.stats}: ino, size, mtimeMs, ctimeMs. */
export const FILE_FIGURES = 4;

/** One part's files (those still regular files when opened), in walk order. */
export interface PartFiles {
  /** Workspace-relative paths. */
  readonly relative: string[];
  /** ino, size (-1 when the file could not be read), mtimeMs and ctimeMs of each file. */
  readonly stats: Float64Array;
  /** `FILE_FLAG` bits of each file. */
  readonly flags: Uint8Array;
}

/** Collects a part's file figures as they are read, for at most `capacity` files. */
export class PartFilesWriter {
  private readonly relative: string[] = [];
  private readonly stats: Float64Array;
  private readonly flags: Uint8Array;

  constructor(capacity: number) {
    this.stats = new Float64Array(capacity * FILE_FIGURES);
    this.flags = new Uint8Array(capacity);
  }

  /** Adds a file read with these `lstat` figures and flags. */
  add(relative: string, ino: number, size: number, mtimeMs: number, ctimeMs: number, flags: number): void {
    const index = this.relative.length;
    const at = index * FILE_FIGURES;
    this.relative.push(relative);
    this.stats[at] = ino;
    this.stats[at + 1] = size;
    this.stats[at + 2] = mtimeMs;
    this.stats[at + 3] = ctimeMs;
    this.flags[index] = flags;
  }

  /** Adds a file that could not be read (searched directly until it is read again). */
  addUnreadable(relative: string): void {
    this.add(relative, 0, -1, 0, 0, FILE_FLAG.unreadable);
  }

  /** The files added, in the order added, or reversed (for a part taken from its range's end). */
  finish(reversed: boolean): PartFiles {
    const count = this.relative.length;
    const stats = this.stats.slice(0, count * FILE_FIGURES);
    const flags = this.flags.slice(0, count);
    if (!reversed) return { relative: this.relative, stats, flags };
    const reversedStats = new Float64Array(stats.length);
    for (let index = 0; index < count; index += 1) {
      const from = index * FILE_FIGURES;
      reversedStats.set(stats.subarray(from, from + FILE_FIGURES), (count - 1 - index) * FILE_FIGURES);
    }
    return { relative: this.relative.reverse(), stats: reversedStats, flags: flags.reverse() };
  }
}
