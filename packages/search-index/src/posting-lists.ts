// Turning one part's file-ordered trigram lists into posting lists, in WebAssembly
// (posting-sort-wasm.ts) over the scanner's memory, right after the found trigrams. Radix sort by
// trigram in two passes, each with tables that fit in a cache (random access to a 2^24 table cost
// a third of a build): first by the high byte, then by the low 16 bits within each bucket. Both
// passes are stable, so each trigram's files stay in walk order. Each bucket's lists are encoded
// as soon as it is sorted, while they are in the cache.
import type { FoundList } from './part-scanner.js';
import { webAssembly } from './wasm-api.js';
import { compiledModules } from './wasm-modules.js';
const PAGE = 65536;

/**
 * One part's posting lists, the files numbered from 0 within the part, in walk order: what a
 * chunk keeps until the join, so nothing the join can work out (where a list starts, its first
 * file) is stored: these are a third of a build's memory, each fresh page tens of microseconds.
 * They are in `SharedArrayBuffer`s, so every build thread can read every chunk (each joins a range
 * of keys) without a copy.
 */
export interface PartPostings {
  /** The distinct trigrams, ascending. */
  readonly trigramList: Uint32Array<SharedArrayBuffer>;
  /**
   * Each list's file numbers as deltas (the first from -1), varint-coded, then a 0 byte: no delta
   * is 0, and no byte of a varint of a positive number but the last is 0 (it has the high bit).
   */
  readonly encoded: Uint8Array<SharedArrayBuffer>;
  /** The last file of each list, so parts can be joined without decoding them. */
  readonly lastFiles: Uint32Array<SharedArrayBuffer>;
  /**
   * Where the lists of keys with high byte `h` (`key >>> 16`) start: the slot in `trigramList`
   * at `2h` and the byte in `encoded` at `2h + 1`, for `h` from 0 to 256 (the end), so threads can
   * join a range of keys each.
   */
  readonly highByteStarts: Uint32Array<SharedArrayBuffer>;
}

// The first passes are called in pieces: V8 first runs a WebAssembly function as compiled at
// once and optimizes it once it has run for a while, but a call that is running keeps the code it
// began with, so one call over a whole chunk ran the first chunk of each thread unoptimized.
/** Keys counted per call. */
const COUNT_PIECE = 1 << 16;
/** Files scattered per call (about 50,000 keys on the benchmark corpus). */
const SCATTER_PIECE = 64;

interface PostingSort {
  countHigh(from: number, to: number, counts: number): void;
  scatterHigh(ranges: number, first: number, files: number, cursors: number, lows: number, fileOf: number): void;
  countLows(from: number, to: number, lowEnds: number): void;
  listLows(lowEnds: number, high: number, list: number, distinct: number): number;
  scatterFiles(from: number, to: number, fileOf: number, lowEnds: number, bucket: number): void;
  encodeLists(
    list: number,
    firstSlot: number,
    distinct: number,
    lowEnds: number,
    bucket: number,
    lasts: number,
    encoded: number,
    written: number,
  ): number;
}

/**
 * Sorts and encodes the found trigrams of a part's files: file `n`'s trigrams start at index
 * `fileStarts[n]` of `found` and end where the next file's start (the last at `found.count`).
 * `addedInReverse`: the files were scanned last first (they are numbered in walk order all the
 * same). Grows the memory for the sort's tables; the scanner may scan the next chunk afterwards
 * (its found keys then overwrite the tables).
 */
export function sortPostings(found: FoundList, fileStarts: readonly number[], addedInReverse: boolean): PartPostings {
  const { memory, count: pairs } = found;
  const files = fileStarts.length;
  // A delta is at most the number of files (the first counts from -1).
  const deltaBytes = files < 0x80 ? 1 : files < 0x4000 ? 2 : files < 0x200000 ? 3 : files < 0x10000000 ? 4 : 5;
  const mostDistinct = Math.min(pairs, 1 << 24);
  const narrow = files <= 65536;
  // Tables after the found list, 8-byte aligned; pages never touched cost no memory.
  let next = found.address + 4 * pairs;
  const take = (bytes: number): number => {
    const at = Math.ceil(next / 8) * 8;
    next = at + bytes;
    return at;
  };
  const ranges = take(8 * files);
  const highStarts = take(4 * 257);
  const cursors = take(4 * 256);
  const lowEnds = take(4 * 65536);
  const lows = take(2 * pairs);
  const fileOf = take((narrow ? 2 : 4) * pairs);
  const bucket = take(4 * pairs);
  const list = take(4 * mostDistinct);
  const lasts = take(4 * mostDistinct);
  // The found list is read whole before the first byte is encoded, and a varint of up to three
  // bytes per pair and a 0 byte per list fit in its place.
  const encoded = deltaBytes <= 3 ? found.address : take((deltaBytes + 1) * pairs);
  if (next > memory.buffer.byteLength) memory.grow(Math.ceil((next - memory.buffer.byteLength) / PAGE));
  const words = new Uint32Array(memory.buffer);
  // Whatever an unreadable file's scan left after the found list is no table's starting value.
  words.fill(0, highStarts / 4, (highStarts + 4 * 257) / 4);
  words.fill(0, lowEnds / 4, (lowEnds + 4 * 65536) / 4);
  for (let file = 0; file < files; file += 1) {
    const added = addedInReverse ? files - 1 - file : file;
    const end = added + 1 < files ? fileStarts[added + 1]! : pairs;
    words[ranges / 4 + 2 * file] = found.address + 4 * fileStarts[added]!;
    words[ranges / 4 + 2 * file + 1] = found.address + 4 * end;
  }
  const modules = compiledModules();
  const sort = new webAssembly.Instance(narrow ? modules.sortNarrow : modules.sortWide, {
    env: { memory },
  }).exports as unknown as PostingSort;
  for (let from = 0; from < pairs; from += COUNT_PIECE) {
    sort.countHigh(found.address + 4 * from, found.address + 4 * Math.min(pairs, from + COUNT_PIECE), highStarts + 4);
  }
  for (let high = 0; high < 256; high += 1) words[highStarts / 4 + high + 1]! += words[highStarts / 4 + high]!;
  words.copyWithin(cursors / 4, highStarts / 4, highStarts / 4 + 256);
  for (let first = 0; first < files; first += SCATTER_PIECE) {
    sort.scatterHigh(ranges, first, Math.min(files, first + SCATTER_PIECE), cursors, lows, fileOf);
  }
  let distinct = 0;
  let written = 0;
  const listStarts = new Uint32Array(new SharedArrayBuffer(4 * 2 * 257));
  for (let high = 0; high < 256; high += 1) {
    listStarts[2 * high] = distinct;
    listStarts[2 * high + 1] = written;
    const from = words[highStarts / 4 + high]!;
    const to = words[highStarts / 4 + high + 1]!;
    if (from === to) continue;
    sort.countLows(lows + 2 * from, lows + 2 * to, lowEnds);
    const firstSlot = distinct;
    distinct = sort.listLows(lowEnds, high, list, distinct);
    sort.scatterFiles(lows + 2 * from, lows + 2 * to, fileOf + (narrow ? 2 : 4) * from, lowEnds, bucket);
    written = sort.encodeLists(list, firstSlot, distinct, lowEnds, bucket, lasts, encoded, written);
  }
  listStarts[2 * 256] = distinct;
  listStarts[2 * 256 + 1] = written;
  return {
    trigramList: sharedCopy(new Uint32Array(memory.buffer, list, distinct)),
    encoded: sharedCopy(new Uint8Array(memory.buffer, encoded, written)),
    lastFiles: sharedCopy(new Uint32Array(memory.buffer, lasts, distinct)),
    highByteStarts: listStarts,
  };
}

function sharedCopy(source: Uint32Array): Uint32Array<SharedArrayBuffer>;
function sharedCopy(source: Uint8Array): Uint8Array<SharedArrayBuffer>;
function sharedCopy(source: Uint32Array | Uint8Array): Uint32Array<SharedArrayBuffer> | Uint8Array<SharedArrayBuffer> {
  const buffer = new SharedArrayBuffer(source.byteLength);
  const copy = source instanceof Uint32Array ? new Uint32Array(buffer) : new Uint8Array(buffer);
  copy.set(source);
  return copy;
}
