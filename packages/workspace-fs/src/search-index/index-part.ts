// Indexing one contiguous part of the walk's files, in the index thread or a helper thread: each
// file read as a search reads it (the first `fileLimit` bytes, O_NOFOLLOW | O_NONBLOCK, a NUL in
// the first 8,000 bytes means binary: only the name counts), scanned, and the part's posting lists.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { WalkedFile } from './index-walk.js';
import { createScanner, scanText, type PartScanner } from './part-scanner.js';
import { FileTrigrams, type PartPostings } from './posting-lists.js';
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

/** One file's figures and the count of its trigrams left in the scanner's found list. */
interface FileReading {
  readonly file: IndexedFile;
  readonly trigrams: number;
  readonly bytes: number;
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

// Reads what a search would read; undefined when the path is no longer a regular file. The
// caller takes the found trigrams and makes the scanner forget them.
function readFile(walked: WalkedFile, scanner: PartScanner, settings: PartSettings): FileReading | undefined {
  const unreadable: FileReading = {
    file: { relative: walked.relative, ino: 0, size: -1, mtimeMs: 0, ctimeMs: 0, flags: FILE_FLAG.unreadable },
    trigrams: 0,
    bytes: 0,
  };
  let descriptor: number;
  try {
    descriptor = openSync(walked.absolute, OPEN_FLAGS);
  } catch {
    return unreadable;
  }
  let count = 0;
  try {
    const stats = fstatSync(descriptor);
    if (!stats.isFile()) return undefined;
    // The name first: the content is then read over it.
    const text = scanner.text;
    if (Buffer.byteLength(walked.name, 'utf8') > text.length)
      throw new Error('a file name longer than the scan buffer');
    count = scanText(scanner, text.write(walked.name, 0, 'utf8'), count);
    const wanted = Math.min(stats.size, settings.fileLimit);
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
      trigrams: count,
      bytes: filled,
    };
  } catch {
    scanner.forget(count);
    return unreadable;
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Indexes a contiguous part of the walk's files: each kept file's figures, and for each trigram
 * the part's files holding it (numbered from 0 within the part, in walk order).
 */
export function indexPart(files: readonly WalkedFile[], settings: PartSettings): IndexedPart {
  const started = Date.now();
  const scanner = createScanner(settings.fileLimit);
  const entries: IndexedFile[] = [];
  const fileTrigrams = new FileTrigrams();
  let textBytes = 0;
  for (const walked of files) {
    const reading = readFile(walked, scanner, settings);
    if (reading === undefined) continue;
    fileTrigrams.add(scanner.found, reading.trigrams);
    scanner.forget(reading.trigrams);
    textBytes += reading.bytes;
    entries.push(reading.file);
  }
  const postings = fileTrigrams.pairs;
  return { entries, ...fileTrigrams.toPostings(), postings, textBytes, ms: Date.now() - started };
}
