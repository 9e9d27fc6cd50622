import { describe, expect, it } from 'vitest';
import { sortPostings } from './posting-lists.js';
import { concatenatedJoins, mergeChunks, splitJoin, type PostingChunk } from './posting-merge.js';
import { sharedMemory } from './wasm-api.js';
import { decodePostingList } from './stored-index.js';

/**
 * Files of a few keys each from a small pool, some holding most of it, and the pool's first keys
 * in most files: lists of one file and of hundreds (longer than the join copies byte by byte).
 */
function randomFiles(fileCount: number): number[][] {
  const pool = Array.from({ length: 500 }, (_, index) => (index * 40_503) & 0xffffff);
  return Array.from({ length: fileCount }, (_, file) => {
    const share = file % 40 === 0 ? 0.9 : 0.02;
    return [...new Set(pool.filter((_, index) => Math.random() < (index < 5 ? 0.7 : share)))];
  });
}

/** Files of keys spread over every high byte, some in most files: ranges of keys of unequal weight. */
function spreadFiles(fileCount: number): number[][] {
  const pool = Array.from({ length: 2000 }, (_, index) => ((index * 2_654_435_761) >>> 8) & 0xffffff);
  return Array.from({ length: fileCount }, (_, file) => [
    ...new Set(pool.filter((_, index) => Math.random() < (index % 97 === 0 ? 0.8 : 0.03) || index === file % 2000)),
  ]);
}

/** A chunk of `files` (numbered from 0), sorted as a thread sorts it in the scanner's memory. */
function chunkOf(files: number[][], addedInReverse: boolean): PostingChunk {
  const memory = sharedMemory(1);
  const added = addedInReverse ? [...files].reverse() : files;
  const pairs = added.reduce((sum, keys) => sum + keys.length, 0);
  memory.grow(Math.ceil((4 * pairs) / 65536) + 1);
  const words = new Uint32Array(memory.buffer);
  const fileStarts: number[] = [];
  let at = 0;
  for (const keys of added) {
    fileStarts.push(at);
    words.set(keys, at);
    at += keys.length;
  }
  return { ...sortPostings({ memory, address: 0, count: pairs }, fileStarts, addedInReverse), files: files.length };
}

/** Each key's files over all files, ascending. */
function expectedLists(files: number[][]): Map<number, number[]> {
  const lists = new Map<number, number[]>();
  files.forEach((keys, file) => {
    for (const key of keys) lists.set(key, [...(lists.get(key) ?? []), file]);
  });
  return new Map([...lists].sort(([left], [right]) => left - right));
}

describe('mergeChunks', () => {
  it.each([
    ['one chunk', [300]],
    ['chunks of a few files and of hundreds, some sorted last file first', [3, 250, 1, 180]],
  ])('joins %s into each key ascending over all files', (_name, sizes) => {
    const files = randomFiles(sizes.reduce((sum, size) => sum + size, 0));
    const chunks: PostingChunk[] = [];
    let start = 0;
    sizes.forEach((size, number) => {
      chunks.push(chunkOf(files.slice(start, start + size), number % 2 === 1));
      start += size;
    });
    const merged = mergeChunks(chunks);
    const expected = expectedLists(files);
    expect([...merged.trigramList]).toEqual([...expected.keys()]);
    expect(merged.postingStarts.at(-1)).toBe(merged.encoded.length);
    const lists = [...merged.trigramList].map((_, slot) => [
      ...decodePostingList(merged.encoded, merged.postingStarts[slot]!, merged.postingStarts[slot + 1]!),
    ]);
    expect(lists).toEqual([...expected.values()]);
  });

  it('lays its results out in the memory it is lent, from its start', () => {
    const files = randomFiles(120);
    const lent = sharedMemory(1);
    const merged = mergeChunks([chunkOf(files.slice(0, 60), false), chunkOf(files.slice(60), true)], (bytes) => {
      lent.grow(Math.ceil(bytes / 65536));
      return lent;
    });
    expect(merged.encoded.buffer).toBe(lent.buffer);
    expect(merged.encoded.byteOffset).toBe(0);
    expect([...merged.trigramList]).toEqual([...expectedLists(files).keys()]);
  });

  it('joins consecutive ranges of keys that, written one after another, are the whole join', () => {
    const files = spreadFiles(300);
    const chunks = [
      chunkOf(files.slice(0, 120), false),
      chunkOf(files.slice(120, 130), true),
      chunkOf(files.slice(130), false),
    ];
    const whole = mergeChunks(chunks);
    for (const threads of [1, 2, 3, 4]) {
      const ranges = splitJoin(chunks, threads);
      expect(ranges).toHaveLength(threads);
      expect(ranges[0]!.fromHigh).toBe(0);
      expect(ranges.at(-1)!.toHigh).toBe(256);
      ranges.slice(1).forEach((range, number) => expect(range.fromHigh).toBe(ranges[number]!.toHigh));
      const joins = ranges.map((range) => mergeChunks(chunks, undefined, range));
      // Ranges of about equal bytes: none more than twice its share of the whole.
      for (const join of joins) expect(join.encoded.length).toBeLessThan((2 * whole.encoded.length) / threads);
      const joined = concatenatedJoins(joins);
      expect(joined.distinct).toBe(whole.trigramList.length);
      expect([...joined.trigramList.flatMap((part) => [...part])]).toEqual([...whole.trigramList]);
      expect(joined.postingStarts.flatMap((part) => [...part])).toEqual([...whole.postingStarts]);
      expect(Buffer.concat(joined.encoded)).toEqual(Buffer.from(whole.encoded));
    }
  });
});
