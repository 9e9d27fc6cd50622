// Indexing one contiguous part of the walk's files, in the index thread or a helper thread: each
// file read as a search reads it (the first `fileLimit` bytes, O_NOFOLLOW | O_NONBLOCK, a NUL in
// the first 8,000 bytes means binary: only the name counts), scanned, and the part's posting lists.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { WalkedFile } from './index-walk.js';
import { PartScanner, scanText, type FoundList } from './part-scanner.js';
import { sortPostings, type PartPostings } from './posting-lists.js';
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
export interface IndexedPart extends PartPostings {
  readonly entries: IndexedFile[];
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
}

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
 * the part is the files this thread took from its end of `files`.
 */
export function indexPart(files: readonly WalkedFile[], settings: PartSettings, shared?: SharedRange): IndexedPart {
  const started = Date.now();
  const fromEnd = shared?.fromEnd === true;
  const { entries, textBytes, found, fileStarts } = scanPart(files, settings, shared);
  if (fromEnd) entries.reverse();
  const lists = sortPostings(found, fileStarts, fromEnd);
  return { entries, ...lists, postings: found.count, textBytes, ms: Date.now() - started };
}

interface ScannedPart {
  readonly entries: IndexedFile[];
  readonly textBytes: number;
  readonly found: FoundList;
  /** Where each file's trigrams start in `found`, in the order scanned. */
  readonly fileStarts: number[];
}

function scanPart(files: readonly WalkedFile[], settings: PartSettings, shared: SharedRange | undefined): ScannedPart {
  const scanner = new PartScanner(settings.fileLimit);
  const entries: IndexedFile[] = [];
  const fileStarts: number[] = [];
  const fromEnd = shared?.fromEnd === true;
  let found = 0;
  let textBytes = 0;
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
  }
  return { entries, textBytes, found: scanner.foundList(found), fileStarts };
}
