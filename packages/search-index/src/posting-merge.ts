// Joining the posting lists of a build's chunks: each thread sorts its files in chunks, and the
// threads' chunks are joined once, in walk order.
import { JOIN_ENTRY, JOIN_ENTRY_BYTES, JOIN_NO_KEY, JOIN_OVERRUN_BYTES } from './posting-join-wasm.js';
import type { PartPostings } from './posting-lists.js';
import { sharedMemory, webAssembly, type WasmMemory } from './wasm-api.js';
import { compiledModules } from './wasm-modules.js';

const PAGE = 65536;

/** The posting lists of a run of consecutive files, numbered from 0 within the chunk. */
export interface PostingChunk extends PartPostings {
  /** Files in the chunk (those after it are numbered from here on). */
  readonly files: number;
}

/** One posting list per key over all the chunks' files, as one chunk of all the files would hold. */
export interface MergedPostings {
  readonly trigramList: Uint32Array;
  readonly postingStarts: Uint32Array;
  readonly encoded: Uint8Array;
}

/** Where a join lays out its results: a memory of at least `bytes`, used from its start. */
export type JoinMemory = (bytes: number) => WasmMemory;

/** The keys whose high byte (`key >>> 16`) is in [`fromHigh`, `toHigh`): what one thread joins. */
export interface HighByteRange {
  readonly fromHigh: number;
  readonly toHigh: number;
}

const EVERY_KEY: HighByteRange = { fromHigh: 0, toHigh: 256 };

/**
 * What the join costs, fitted to its time over ranges of 16 high bytes of the benchmark corpus'
 * chunks (nanoseconds, the copy into its memory included): most of it is per list, not per byte.
 * Only the ratio matters to a split.
 */
const JOIN_COST = { perList: 17, perByte: 0.3 } as const;

/**
 * Splits the keys into `threads` consecutive ranges of about equal cost to join (by the lists and
 * bytes of the chunks in each), at high bytes (a range may be empty): each thread joins one, at
 * the same time. A split by bytes alone gave the first of two threads twice the second's time: the
 * joint grams (high bytes 82-89 on the corpus) are many short lists.
 */
export function splitJoin(chunks: readonly PostingChunk[], threads: number): HighByteRange[] {
  const costBefore = new Float64Array(257);
  for (let high = 0; high < 256; high += 1) {
    let cost = 0;
    for (const { highByteStarts: starts } of chunks) {
      cost += JOIN_COST.perList * (starts[2 * high + 2]! - starts[2 * high]!);
      cost += JOIN_COST.perByte * (starts[2 * high + 3]! - starts[2 * high + 1]!);
    }
    costBefore[high + 1] = costBefore[high]! + cost;
  }
  const ranges: HighByteRange[] = [];
  let fromHigh = 0;
  for (let thread = 1; thread < threads; thread += 1) {
    const share = (costBefore[256]! * thread) / threads;
    let toHigh = fromHigh;
    while (toHigh < 256 && costBefore[toHigh + 1]! <= share) toHigh += 1;
    // The high byte that crosses the share goes to whichever side it leaves nearer to it.
    if (toHigh < 256 && costBefore[toHigh + 1]! - share < share - costBefore[toHigh]!) toHigh += 1;
    ranges.push({ fromHigh, toHigh });
    fromHigh = toHigh;
  }
  ranges.push({ fromHigh, toHigh: 256 });
  return ranges;
}

/**
 * Joins chunks (in walk order), the keys in `range` (all by default): a chunk's file numbers move
 * up by the files of the chunks before it, so only the first delta of each chunk's list changes
 * (it now counts from the previous chunk's last file); the rest of its bytes are copied as they
 * are, up to the 0 byte that ends it. The join runs in WebAssembly (posting-join-wasm.ts) over a
 * copy of the range's lists after the space for its results: copy and join take a third of the
 * CPU the join in JavaScript took on the benchmark corpus. The results are views of arrays laid
 * out for the worst case from the start of `memory` when given (a scanner's memory, whose pages
 * are already touched: a fresh page costs tens of microseconds on a virtual machine), else of a
 * new memory: pages never written cost no memory, and a copy to the exact size would touch as many
 * fresh pages again.
 */
export function mergeChunks(
  chunks: readonly PostingChunk[],
  memory?: JoinMemory,
  range: HighByteRange = EVERY_KEY,
): MergedPostings {
  const slices = chunks.map((chunk) => sliceOf(chunk, range));
  let files = 0;
  let bound = 0;
  let records = 0;
  chunks.forEach((chunk, number) => {
    const { fromSlot, toSlot, fromByte, toByte } = slices[number]!;
    files += chunk.files;
    bound += toByte - fromByte;
    records += toSlot - fromSlot;
  });
  // A list's new first delta is at most the count of files; its old one took at least a byte
  // (and its 0 byte is not copied).
  const encodedBound = bound + records * (varintBytes(files) - 1);
  const mostDistinct = Math.min(records, 1 << 24);
  const listsAt = align(encodedBound + JOIN_OVERRUN_BYTES, 4);
  const startsAt = listsAt + 4 * mostDistinct;
  const tableAt = align(startsAt + 4 * (mostDistinct + 1), JOIN_ENTRY_BYTES);
  const tableEnd = tableAt + JOIN_ENTRY_BYTES * Math.max(chunks.length, 1);
  // Then each chunk's keys (and the key after its last), last files and list bytes in the range.
  const inputsAt = tableEnd;
  let size = inputsAt;
  for (const { fromSlot, toSlot, fromByte, toByte } of slices) {
    size += 4 * (2 * (toSlot - fromSlot) + 1) + align(toByte - fromByte, 4);
  }
  size += JOIN_OVERRUN_BYTES;
  const lent = memory ? memory(size) : sharedMemory(Math.ceil(size / PAGE));
  const buffer = lent.buffer;
  const words = new Uint32Array(buffer);
  const bytes = new Uint8Array(buffer);
  let at = inputsAt;
  let base = 0;
  chunks.forEach((chunk, number) => {
    const { fromSlot, toSlot, fromByte, toByte } = slices[number]!;
    const entry = (tableAt + JOIN_ENTRY_BYTES * number) / 4;
    words[entry + JOIN_ENTRY.key / 4] = at;
    words.set(chunk.trigramList.subarray(fromSlot, toSlot), at / 4);
    at += 4 * (toSlot - fromSlot);
    words[at / 4] = JOIN_NO_KEY;
    at += 4;
    words[entry + JOIN_ENTRY.last / 4] = at;
    words.set(chunk.lastFiles.subarray(fromSlot, toSlot), at / 4);
    at += 4 * (toSlot - fromSlot);
    words[entry + JOIN_ENTRY.bytes / 4] = at;
    bytes.set(chunk.encoded.subarray(fromByte, toByte), at);
    at += align(toByte - fromByte, 4);
    words[entry + JOIN_ENTRY.base / 4] = base;
    base += chunk.files;
  });
  if (chunks.length === 0) {
    words[tableAt / 4 + JOIN_ENTRY.key / 4] = at;
    words[at / 4] = JOIN_NO_KEY;
  }
  const { join } = new webAssembly.Instance(compiledModules().join, { env: { memory: lent } }).exports as unknown as {
    join(
      table: number,
      tableEnd: number,
      encoded: number,
      lists: number,
      starts: number,
      distinct: number,
      until: number,
    ): number;
  };
  words[startsAt / 4] = 0;
  let distinct = 0;
  for (let high = range.fromHigh; high < range.toHigh; high += 1) {
    distinct = join(tableAt, tableEnd, 0, listsAt, startsAt, distinct, (high + 1) << 16);
  }
  const written = words[startsAt / 4 + distinct]!;
  return {
    trigramList: new Uint32Array(buffer, listsAt, distinct),
    postingStarts: new Uint32Array(buffer, startsAt, distinct + 1),
    encoded: new Uint8Array(buffer, 0, written),
  };
}

/** Where a chunk's lists of the keys in a range are: its slots and its bytes. */
interface ChunkSlice {
  readonly fromSlot: number;
  readonly toSlot: number;
  readonly fromByte: number;
  readonly toByte: number;
}

function sliceOf({ highByteStarts: starts }: PostingChunk, { fromHigh, toHigh }: HighByteRange): ChunkSlice {
  return {
    fromSlot: starts[2 * fromHigh]!,
    toSlot: starts[2 * toHigh]!,
    fromByte: starts[2 * fromHigh + 1]!,
    toByte: starts[2 * toHigh + 1]!,
  };
}

function align(value: number, to: number): number {
  return Math.ceil(value / to) * to;
}

function varintBytes(value: number): number {
  let count = 1;
  for (let rest = value; rest >= 128; rest = Math.floor(rest / 128)) count += 1;
  return count;
}

/**
 * The joins of consecutive key ranges as one join's sections, in pieces to write one after
 * another: each later range's list starts are moved on, in place, by the bytes before it.
 */
export function concatenatedJoins(joins: readonly MergedPostings[]): {
  readonly trigramList: Uint32Array[];
  readonly postingStarts: Uint32Array[];
  readonly encoded: Uint8Array[];
  readonly distinct: number;
} {
  let bytesBefore = 0;
  let distinct = 0;
  const postingStarts: Uint32Array[] = [];
  joins.forEach((join, number) => {
    const starts = join.postingStarts;
    if (bytesBefore > 0) for (let slot = 0; slot < starts.length; slot += 1) starts[slot]! += bytesBefore;
    // Each range's end is the next one's first start.
    postingStarts.push(number + 1 < joins.length ? starts.subarray(0, starts.length - 1) : starts);
    bytesBefore += join.encoded.length;
    distinct += join.trigramList.length;
  });
  return {
    trigramList: joins.map((join) => join.trigramList),
    postingStarts,
    encoded: joins.map((join) => join.encoded),
    distinct,
  };
}
