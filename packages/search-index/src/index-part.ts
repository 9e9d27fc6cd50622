// Indexing one contiguous part of the walk's files, in the index thread or a helper thread: each
// file read as a search reads it (the first `fileLimit` bytes, O_NOFOLLOW | O_NONBLOCK, a NUL in
// the first 8,000 bytes means binary: only the name counts), scanned, and the part's posting lists.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { WalkedFile } from './index-walk.js';
import { PartFilesWriter, type PartFiles } from './part-files.js';
import { PartScanner, scanText } from './part-scanner.js';
import { sortPostings } from './posting-lists.js';
import type { PostingChunk } from './posting-merge.js';
import { FILE_FLAG } from './stored-index.js';

/** One part's files (those still regular files when opened) and posting lists. */
export interface IndexedPart {
  readonly files: PartFiles;
  /** The part's posting lists, a chunk of consecutive files each, in walk order. */
  readonly chunks: PostingChunk[];
  /** File-trigram pairs. */
  readonly postings: number;
  /** Bytes of text read and scanned. */
  readonly textBytes: number;
  /** Milliseconds the part took. */
  readonly ms: number;
}

/** What a part is indexed with: `now` decides which files are settled. */
export interface PartSettings {
  readonly fileLimit: number;
  readonly now: number;
  readonly settledMs: number;
  /**
   * Keys found (file by file) after which the files so far are sorted as one chunk and the
   * scanner's memory is used again for the next: see {@link DEFAULT_CHUNK_KEYS}.
   */
  readonly chunkKeys: number;
  /**
   * Keys the stored index does not list (held by so many files that they narrow no search:
   * common-keys.ts), marked seen in the scanner before the part's first file so no file appends
   * them; sorted.
   */
  readonly commonKeys: Uint32Array;
}

/**
 * Keys a chunk holds before it is sorted (4 Mi keys: 16 MiB of found keys, about as much again
 * for the sort's tables). Sorting a whole part at once made its memory grow with the part (a
 * fresh page for every 1,024 keys, 220 MiB of found keys on the benchmark corpus, more than
 * that for the sort); on a virtual machine that backs guest memory on first touch, a fresh page
 * cost 20-40 µs, and those faults were most of a build's time. Since format 4 (a third of the
 * keys), chunks of 4 Mi keys touch 58,000 pages in a two-thread build of the corpus against
 * 70,000-75,000 with 8 Mi, for about the same CPU: the join of twice the chunks is still short.
 */
export const DEFAULT_CHUNK_KEYS = 1 << 22;

/**
 * Two threads sharing a range of files, one from each end: each takes a file only after counting
 * it in the shared `claimed[slot]`, so together they take each file once and meet where the
 * faster one got to, whatever each file costs and whenever each thread started.
 */
export interface SharedRange {
  /** Files taken so far from both ends (a view of a `SharedArrayBuffer`). */
  readonly claimed: Int32Array;
  readonly slot: number;
  /** Whether this thread takes the range's files from the last one backwards. */
  readonly fromEnd: boolean;
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** What reading a file needs of a part's settings: how much of it, and when it counts as settled. */
export type ReadSettings = Pick<PartSettings, 'fileLimit' | 'now' | 'settledMs'>;

/** Reads a part's files one by one into its scanner, recording each file's figures. */
export class PartReader {
  /** Bytes of text read so far. */
  textBytes = 0;

  constructor(
    private readonly scanner: PartScanner,
    private readonly settings: ReadSettings,
    private readonly files: PartFilesWriter,
  ) {}

  /**
   * Reads what a search would read and scans it after the part's first `at` keys; returns the
   * count of keys now, or -1 when the path is no longer a regular file (nothing recorded). The
   * caller makes the scanner forget the file's keys before the next file.
   */
  read(walked: WalkedFile, at: number): number {
    const { scanner, settings } = this;
    let descriptor: number;
    try {
      descriptor = openSync(walked.absolute, OPEN_FLAGS);
    } catch {
      this.files.addUnreadable(walked.relative);
      return at;
    }
    let count = at;
    try {
      const stats = fstatSync(descriptor);
      if (!stats.isFile()) return -1;
      const nameBytes = Buffer.byteLength(walked.name, 'utf8');
      const wanted = Math.min(stats.size, settings.fileLimit);
      scanner.makeRoom(at, wanted, nameBytes);
      // The name first: the content is then read over it.
      const text = scanner.text;
      if (nameBytes > text.length) throw new Error('a file name longer than the scan buffer');
      count = scanText(scanner, text.write(walked.name, 0, 'utf8'), count);
      let filled = 0;
      while (filled < wanted) {
        const read = readSync(descriptor, text, filled, wanted - filled, filled);
        if (read === 0) break;
        filled += read;
      }
      if (!scanner.holdsNul(Math.min(filled, 8000))) count = scanText(scanner, filled, count);
      const settled = Math.max(stats.mtimeMs, stats.ctimeMs) < settings.now - settings.settledMs;
      this.files.add(
        walked.relative,
        stats.ino,
        stats.size,
        stats.mtimeMs,
        stats.ctimeMs,
        settled ? FILE_FLAG.settled : 0,
      );
      this.textBytes += filled;
      return count;
    } catch {
      scanner.forget(at, count);
      this.files.addUnreadable(walked.relative);
      return at;
    } finally {
      closeSync(descriptor);
    }
  }
}

/** The files a part takes, one at a time: all of `walked`, or with `shared` its end of them. */
class PartQueue {
  /** Whether the part has taken its last file. */
  done = false;
  /** Whether it takes them from the last backwards. */
  readonly fromEnd: boolean;
  private taken = 0;

  constructor(
    private readonly walked: readonly WalkedFile[],
    private readonly shared: SharedRange | undefined,
  ) {
    this.fromEnd = shared?.fromEnd === true;
  }

  next(): WalkedFile | undefined {
    const { walked, shared } = this;
    if (this.taken === walked.length || (shared && Atomics.add(shared.claimed, shared.slot, 1) >= walked.length)) {
      this.done = true;
      return undefined;
    }
    const taken = this.taken++;
    return walked[this.fromEnd ? walked.length - 1 - taken : taken];
  }
}

// Reads and scans files from `queue` until the chunk holds `chunkKeys` keys or the files run out;
// returns the chunk's keys, `fileStarts` filled. A loop of its own, ended only by its condition:
// V8 optimizes it while it runs, and a path first taken later (a chunk full, in the loop that
// also sorted) threw that code away and compiled it again.
function fillChunk(
  reader: PartReader,
  scanner: PartScanner,
  queue: PartQueue,
  fileStarts: number[],
  chunkKeys: number,
): number {
  let found = 0;
  while (found < chunkKeys) {
    const walked = queue.next();
    if (walked === undefined) break;
    const foundEnd = reader.read(walked, found);
    if (foundEnd < 0) continue;
    scanner.forget(found, foundEnd);
    fileStarts.push(found);
    found = foundEnd;
  }
  return found;
}

/**
 * Indexes a contiguous part of the walk's files: each kept file's figures, and for each trigram
 * the part's files holding it (numbered from 0 within the part, in walk order). With `shared`,
 * the part is the files this thread took from its end of `walked`. A `scanner` passed in can lend
 * its memory to the join afterwards ({@link PartScanner.spareMemory}).
 */
export function indexPart(
  walked: readonly WalkedFile[],
  settings: PartSettings,
  shared?: SharedRange,
  scanner = new PartScanner(settings.fileLimit),
): IndexedPart {
  const started = Date.now();
  scanner.markCommon(settings.commonKeys);
  const queue = new PartQueue(walked, shared);
  const { fromEnd } = queue;
  const files = new PartFilesWriter(walked.length);
  const reader = new PartReader(scanner, settings, files);
  const chunks: PostingChunk[] = [];
  let postings = 0;
  do {
    // Where each file's keys start among the chunk's keys, in the order scanned.
    const fileStarts: number[] = [];
    const found = fillChunk(reader, scanner, queue, fileStarts, settings.chunkKeys);
    // The last chunk is sorted if it holds a file, or if it is the only one (a part of none).
    if (fileStarts.length === 0 && chunks.length > 0) break;
    chunks.push({ ...sortPostings(scanner.foundList(found), fileStarts, fromEnd), files: fileStarts.length });
    postings += found;
  } while (!queue.done);
  if (fromEnd) chunks.reverse();
  return { files: files.finish(fromEnd), chunks, postings, textBytes: reader.textBytes, ms: Date.now() - started };
}
