// Joining the parts of a build that were indexed in separate threads.
import type { IndexedFile, IndexedPart } from './index-part.js';

/** All files of a build and one posting list per trigram, as one part of all the files would hold. */
export interface MergedPostings {
  readonly entries: IndexedFile[];
  readonly trigramList: Uint32Array;
  readonly postingStarts: Uint32Array;
  readonly encoded: Uint8Array;
  readonly postings: number;
  readonly textBytes: number;
}

/**
 * Joins parts (in walk order): a part's file numbers move up by the files of the parts before
 * it, so only the first delta of each part's list changes (it now counts from the previous part's
 * last file); the rest of its bytes are copied as they are.
 */
export function mergeParts(parts: readonly IndexedPart[]): MergedPostings {
  if (parts.length === 1) return parts[0]!;
  // The parts' arrays, taken out of the part objects once (a part from a helper thread is a
  // deserialized object of another shape, and property loads in the loop cost a third of a join).
  const lists = parts.map((part) => part.trigramList);
  const starts = parts.map((part) => part.postingStarts);
  const bytes = parts.map((part) => part.encoded);
  const firsts = parts.map((part) => part.firstFiles);
  const lasts = parts.map((part) => part.lastFiles);
  const bases: number[] = [];
  let files = 0;
  let bound = 0;
  let pairs = 0;
  for (const part of parts) {
    bases.push(files);
    files += part.entries.length;
    bound += part.encoded.length;
    pairs += part.trigramList.length;
  }
  const encoded = new Uint8Array(bound + pairs * 5);
  const trigramList = new Uint32Array(pairs);
  const postingStarts = new Uint32Array(pairs + 1);
  const cursors = parts.map(() => 0);
  let distinct = 0;
  let written = 0;
  for (;;) {
    let smallest = -1;
    for (let number = 0; number < parts.length; number += 1) {
      const list = lists[number]!;
      const cursor = cursors[number]!;
      if (cursor < list.length && (smallest < 0 || list[cursor]! < smallest)) smallest = list[cursor]!;
    }
    if (smallest < 0) break;
    trigramList[distinct] = smallest;
    postingStarts[distinct] = written;
    distinct += 1;
    let previous = -1;
    for (let number = 0; number < parts.length; number += 1) {
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
    entries: parts.flatMap((part) => part.entries),
    trigramList: trigramList.slice(0, distinct),
    postingStarts: postingStarts.slice(0, distinct + 1),
    encoded: encoded.slice(0, written),
    postings: parts.reduce((sum, part) => sum + part.postings, 0),
    textBytes: parts.reduce((sum, part) => sum + part.textBytes, 0),
  };
}
