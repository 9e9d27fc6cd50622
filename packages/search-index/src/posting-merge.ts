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

/** Where a join lays out its results: an `ArrayBuffer` of at least `bytes`, used from its start. */
export type JoinMemory = (bytes: number) => ArrayBuffer;

/**
 * Joins chunks (in walk order): a chunk's file numbers move up by the files of the chunks before
 * it, so only the first delta of each chunk's list changes (it now counts from the previous
 * chunk's last file); the rest of its bytes are copied as they are. The results are views of
 * arrays laid out for the worst case, in `memory` when given (a scanner's memory, whose pages are
 * already touched: a fresh page costs tens of microseconds on a virtual machine), else in a new
 * buffer: pages never written cost no memory, and a copy to the exact size would touch as many
 * fresh pages again.
 */
export function mergeChunks(chunks: readonly PostingChunk[], memory?: JoinMemory): MergedPostings {
  if (chunks.length === 1) return chunks[0]!;
  // The chunks' arrays, taken out of the chunk objects once (a chunk from a helper thread is a
  // deserialized object of another shape, and property loads in the loop cost a third of a join).
  const lists = chunks.map((chunk) => chunk.trigramList);
  const starts = chunks.map((chunk) => chunk.postingStarts);
  const bytes = chunks.map((chunk) => chunk.encoded);
  const firsts = chunks.map((chunk) => chunk.firstFiles);
  const lasts = chunks.map((chunk) => chunk.lastFiles);
  const bases: number[] = [];
  let files = 0;
  let bound = 0;
  let records = 0;
  for (const chunk of chunks) {
    bases.push(files);
    files += chunk.files;
    bound += chunk.encoded.length;
    records += chunk.trigramList.length;
  }
  // A list's new first delta is at most the count of files; its old one took at least a byte.
  const encodedBound = bound + records * (varintBytes(files) - 1);
  const mostDistinct = Math.min(records, 1 << 24);
  const listsAt = Math.ceil(encodedBound / 4) * 4;
  const startsAt = listsAt + 4 * mostDistinct;
  const size = startsAt + 4 * (mostDistinct + 1);
  const buffer = memory ? memory(size) : new ArrayBuffer(size);
  const encoded = new Uint8Array(buffer, 0, encodedBound);
  const trigramList = new Uint32Array(buffer, listsAt, mostDistinct);
  const postingStarts = new Uint32Array(buffer, startsAt, mostDistinct + 1);
  const cursors = chunks.map(() => 0);
  let distinct = 0;
  let written = 0;
  for (;;) {
    let smallest = -1;
    for (let number = 0; number < chunks.length; number += 1) {
      const list = lists[number]!;
      const cursor = cursors[number]!;
      if (cursor < list.length && (smallest < 0 || list[cursor]! < smallest)) smallest = list[cursor]!;
    }
    if (smallest < 0) break;
    trigramList[distinct] = smallest;
    postingStarts[distinct] = written;
    distinct += 1;
    let previous = -1;
    for (let number = 0; number < chunks.length; number += 1) {
      const slot = cursors[number]!;
      const list = lists[number]!;
      if (slot >= list.length || list[slot] !== smallest) continue;
      const source = bytes[number]!;
      let rest = starts[number]![slot]!;
      while (source[rest]! >= 128) rest += 1;
      rest += 1;
      let delta = bases[number]! + firsts[number]![slot]! - previous;
      while (delta >= 128) {
        encoded[written++] = (delta & 127) | 128;
        delta >>>= 7;
      }
      encoded[written++] = delta;
      const end = starts[number]![slot + 1]!;
      // Most lists are a few bytes: a loop costs less than a subarray and a set.
      if (end - rest < 64) for (let index = rest; index < end; index += 1) encoded[written++] = source[index]!;
      else {
        encoded.set(source.subarray(rest, end), written);
        written += end - rest;
      }
      previous = bases[number]! + lasts[number]![slot]!;
      cursors[number] = slot + 1;
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
