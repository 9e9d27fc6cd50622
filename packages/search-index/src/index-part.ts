// Indexing one contiguous part of the walk's files, in the index thread or a helper thread: each
// file read as a search reads it (the first `fileLimit` bytes, O_NOFOLLOW | O_NONBLOCK, a NUL in
// the first 8,000 bytes means binary: only the name counts), scanned, and the part's posting lists.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { WalkedFile } from './index-walk.js';
import { PartScanner, scanText } from './part-scanner.js';
import { sortPostings } from './posting-lists.js';
import type { PostingChunk } from './posting-merge.js';
import { FILE_FLAG } from './stored-index.js';

/** A file as the index stores it: the `lstat` figures it had when read, and its flags. */
export interface IndexedFile {
  readonly relative: string;
  readonly ino: number;
  /** -1 when the file could not be read. */
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  /** `FILE_FLAG` bits. */
  readonly flags: number;
}

/** One part's files (those still regular files when opened) and posting lists. */
export interface IndexedPart {
  readonly entries: IndexedFile[];
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

/** One file's figures, and the count of trigrams found in the part up to and with it. */
interface FileReading {
  readonly file: IndexedFile;
  readonly foundEnd: number;
  readonly bytes: number;
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

// Reads what a search would read and scans it after the part's first `at` trigrams; undefined
// when the path is no longer a regular file. The caller makes the scanner forget the file's
// trigrams before the next file.
function readFile(
  walked: WalkedFile,
  scanner: PartScanner,
  settings: PartSettings,
  at: number,
): FileReading | undefined {
  const unreadable: FileReading = {
    file: { relative: walked.relative, ino: 0, size: -1, mtimeMs: 0, ctimeMs: 0, flags: FILE_FLAG.unreadable },
    foundEnd: at,
    bytes: 0,
  };
  let descriptor: number;
  try {
    descriptor = openSync(walked.absolute, OPEN_FLAGS);
  } catch {
    return unreadable;
  }
  let count = at;
  try {
    const stats = fstatSync(descriptor);
    if (!stats.isFile()) return undefined;
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
    if (!text.subarray(0, Math.min(filled, 8000)).includes(0)) count = scanText(scanner, filled, count);
    const settled = Math.max(stats.mtimeMs, stats.ctimeMs) < settings.now - settings.settledMs;
    return {
      file: {
        relative: walked.relative,
        ino: stats.ino,
        size: stats.size,
        mtimeMs: stats.mtimeMs,
        ctimeMs: stats.ctimeMs,
        flags: settled ? FILE_FLAG.settled : 0,
      },
      foundEnd: count,
      bytes: filled,
    };
  } catch {
    scanner.forget(at, count);
    return unreadable;
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Indexes a contiguous part of the walk's files: each kept file's figures, and for each trigram
 * the part's files holding it (numbered from 0 within the part, in walk order). With `shared`,
 * the part is the files this thread took from its end of `files`. A `scanner` passed in can lend
 * its memory to the join afterwards ({@link PartScanner.spareMemory}).
 */
export function indexPart(
  files: readonly WalkedFile[],
  settings: PartSettings,
  shared?: SharedRange,
  scanner = new PartScanner(settings.fileLimit),
): IndexedPart {
  const started = Date.now();
  const fromEnd = shared?.fromEnd === true;
  const entries: IndexedFile[] = [];
  const chunks: PostingChunk[] = [];
  // Where each file's keys start among the keys found, in the order scanned, in this chunk.
  let fileStarts: number[] = [];
  let found = 0;
  let postings = 0;
  let textBytes = 0;
  const sortChunk = () => {
    chunks.push({ ...sortPostings(scanner.foundList(found), fileStarts, fromEnd), files: fileStarts.length });
    postings += found;
    found = 0;
    fileStarts = [];
  };
  for (let taken = 0; taken < files.length; taken += 1) {
    if (shared && Atomics.add(shared.claimed, shared.slot, 1) >= files.length) break;
    const walked = files[fromEnd ? files.length - 1 - taken : taken]!;
    const reading = readFile(walked, scanner, settings, found);
    if (reading === undefined) continue;
    scanner.forget(found, reading.foundEnd);
    fileStarts.push(found);
    found = reading.foundEnd;
    textBytes += reading.bytes;
    entries.push(reading.file);
    if (found >= settings.chunkKeys) sortChunk();
  }
  if (fileStarts.length > 0 || chunks.length === 0) sortChunk();
  if (fromEnd) {
    entries.reverse();
    chunks.reverse();
  }
  return { entries, chunks, postings, textBytes, ms: Date.now() - started };
}
