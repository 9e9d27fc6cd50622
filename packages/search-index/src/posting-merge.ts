// Joining the posting lists of a build's chunks: each thread sorts its files in chunks, and the
// threads' chunks are joined once, in walk order.
import type { PartPostings } from './posting-lists.js';

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

/** Where a join lays out its results: a buffer of at least `bytes`, used from its start. */
export type JoinMemory = (bytes: number) => ArrayBufferLike;

/** The keys whose high byte (`key >>> 16`) is in [`fromHigh`, `toHigh`): what one thread joins. */
export interface HighByteRange {
  readonly fromHigh: number;
  readonly toHigh: number;
}

const EVERY_KEY: HighByteRange = { fromHigh: 0, toHigh: 256 };

/**
 * Splits the keys into `threads` consecutive ranges of about equal bytes of the chunks' lists, at
 * high bytes (a range may be empty): each thread joins one, at the same time. The join after both
 * parts was a sixth of a two-thread build, with the other core idle.
 */
export function splitJoin(chunks: readonly PostingChunk[], threads: number): HighByteRange[] {
  const bytesBefore = (high: number) => chunks.reduce((sum, chunk) => sum + chunk.highByteStarts[2 * high + 1]!, 0);
  const total = bytesBefore(256);
  const ranges: HighByteRange[] = [];
  let fromHigh = 0;
  for (let thread = 1; thread < threads; thread += 1) {
    let toHigh = fromHigh;
    while (toHigh < 256 && bytesBefore(toHigh) < (total * thread) / threads) toHigh += 1;
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
 * are, up to the 0 byte that ends it. The results are views of arrays laid out for the worst case,
 * in `memory` when given (a scanner's memory, whose pages are already touched: a fresh page costs
 * tens of microseconds on a virtual machine), else in a new buffer: pages never written cost no
 * memory, and a copy to the exact size would touch as many fresh pages again.
 */
export function mergeChunks(
  chunks: readonly PostingChunk[],
  memory?: JoinMemory,
  range: HighByteRange = EVERY_KEY,
): MergedPostings {
  // The chunks' arrays, taken out of the chunk objects once (a chunk from a helper thread is a
  // deserialized object of another shape, and property loads in the loop cost a third of a join).
  const lists = chunks.map((chunk) => chunk.trigramList);
  const bytes = chunks.map((chunk) => chunk.encoded);
  const lasts = chunks.map((chunk) => chunk.lastFiles);
  const bases: number[] = [];
  // Each chunk's next list (its slot and where its bytes start), and the slot after the range.
  const slots: number[] = [];
  const positions: number[] = [];
  const ends: number[] = [];
  let files = 0;
  let bound = 0;
  let records = 0;
  for (const chunk of chunks) {
    bases.push(files);
    files += chunk.files;
    const starts = chunk.highByteStarts;
    slots.push(starts[2 * range.fromHigh]!);
    positions.push(starts[2 * range.fromHigh + 1]!);
    ends.push(starts[2 * range.toHigh]!);
    bound += starts[2 * range.toHigh + 1]! - starts[2 * range.fromHigh + 1]!;
    records += starts[2 * range.toHigh]! - starts[2 * range.fromHigh]!;
  }
  // A list's new first delta is at most the count of files; its old one took at least a byte
  // (and its 0 byte is not copied).
  const encodedBound = bound + records * (varintBytes(files) - 1);
  const mostDistinct = Math.min(records, 1 << 24);
  const listsAt = Math.ceil(encodedBound / 4) * 4;
  const startsAt = listsAt + 4 * mostDistinct;
  const size = startsAt + 4 * (mostDistinct + 1);
  const buffer = memory ? memory(size) : new ArrayBuffer(size);
  const encoded = new Uint8Array(buffer, 0, encodedBound);
  const trigramList = new Uint32Array(buffer, listsAt, mostDistinct);
  const postingStarts = new Uint32Array(buffer, startsAt, mostDistinct + 1);
  let distinct = 0;
  let written = 0;
  for (;;) {
    let smallest = -1;
    for (let number = 0; number < chunks.length; number += 1) {
      const list = lists[number]!;
      const slot = slots[number]!;
      if (slot < ends[number]! && (smallest < 0 || list[slot]! < smallest)) smallest = list[slot]!;
    }
    if (smallest < 0) break;
    trigramList[distinct] = smallest;
    postingStarts[distinct] = written;
    distinct += 1;
    let previous = -1;
    for (let number = 0; number < chunks.length; number += 1) {
      const slot = slots[number]!;
      const list = lists[number]!;
      if (slot >= ends[number]! || list[slot] !== smallest) continue;
      const source = bytes[number]!;
      // The first delta counts from -1 within the chunk: it is the first file plus one.
      let index = positions[number]!;
      let first = 0;
      let scale = 1;
      let byte: number;
      do {
        byte = source[index++]!;
        first += (byte & 127) * scale;
        scale *= 128;
      } while (byte >= 128);
      let delta = bases[number]! + first - 1 - previous;
      while (delta >= 128) {
        encoded[written++] = (delta & 127) | 128;
        delta >>>= 7;
      }
      encoded[written++] = delta;
      // Most lists are a few bytes: a loop costs less than a search for the end and a set.
      const shortEnd = Math.min(index + 64, source.length);
      while (index < shortEnd && (byte = source[index]!) !== 0) {
        encoded[written++] = byte;
        index += 1;
      }
      if (index === shortEnd) {
        const end = source.indexOf(0, index);
        encoded.set(source.subarray(index, end), written);
        written += end - index;
        index = end;
      }
      positions[number] = index + 1;
      previous = bases[number]! + lasts[number]![slot]!;
      slots[number] = slot + 1;
    }
  }
  postingStarts[distinct] = written;
  return {
    trigramList: trigramList.subarray(0, distinct),
    postingStarts: postingStarts.subarray(0, distinct + 1),
    encoded: encoded.subarray(0, written),
  };
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
