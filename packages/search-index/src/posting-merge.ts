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
 * chunk's last file); the rest of its bytes are copied as they are, up to the 0 byte that ends
 * it. The results are views of arrays laid out for the worst case, in `memory` when given (a
 * scanner's memory, whose pages are already touched: a fresh page costs tens of microseconds on a
 * virtual machine), else in a new buffer: pages never written cost no memory, and a copy to the
 * exact size would touch as many fresh pages again.
 */
export function mergeChunks(chunks: readonly PostingChunk[], memory?: JoinMemory): MergedPostings {
  // The chunks' arrays, taken out of the chunk objects once (a chunk from a helper thread is a
  // deserialized object of another shape, and property loads in the loop cost a third of a join).
  const lists = chunks.map((chunk) => chunk.trigramList);
  const bytes = chunks.map((chunk) => chunk.encoded);
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
  const slots = chunks.map(() => 0);
  // Where each chunk's next list starts in its bytes.
  const positions = chunks.map(() => 0);
  let distinct = 0;
  let written = 0;
  for (;;) {
    let smallest = -1;
    for (let number = 0; number < chunks.length; number += 1) {
      const list = lists[number]!;
      const slot = slots[number]!;
      if (slot < list.length && (smallest < 0 || list[slot]! < smallest)) smallest = list[slot]!;
    }
    if (smallest < 0) break;
    trigramList[distinct] = smallest;
    postingStarts[distinct] = written;
    distinct += 1;
    let previous = -1;
    for (let number = 0; number < chunks.length; number += 1) {
      const slot = slots[number]!;
      const list = lists[number]!;
      if (slot >= list.length || list[slot] !== smallest) continue;
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
