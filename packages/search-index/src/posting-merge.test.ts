import { describe, expect, it } from 'vitest';
import { sortPostings } from './posting-lists.js';
import {
  concatenatedJoins,
  mergeChunks,
  splitJoin,
  type HighByteRange,
  type MergedPostings,
  type PostingChunk,
} from './posting-merge.js';
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
    for (const key of keys) {
      if (!lists.has(key)) lists.set(key, []);
      lists.get(key)!.push(file);
    }
  });
  return new Map([...lists].sort(([left], [right]) => left - right));
}

/** Each key's list over the joined chunks, decoded. */
function joinedLists(merged: MergedPostings): Map<number, number[]> {
  return new Map(
    [...merged.trigramList].map((key, slot) => [
      key,
      [...decodePostingList(merged.encoded, merged.postingStarts[slot]!, merged.postingStarts[slot + 1]!)],
    ]),
  );
}

/** The chunks of `files`, cut at `sizes`, every other one sorted last file first. */
function chunksOf(files: number[][], sizes: readonly number[]): PostingChunk[] {
  let start = 0;
  return sizes.map((size, number) => {
    start += size;
    return chunkOf(files.slice(start - size, start), number % 2 === 1);
  });
}

/** Lists (keys in a file) of the chunks in a range. */
function listsIn(chunks: readonly PostingChunk[], range: HighByteRange): number {
  return chunks.reduce(
    (sum, chunk) => sum + chunk.highByteStarts[2 * range.toHigh]! - chunk.highByteStarts[2 * range.fromHigh]!,
    0,
  );
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
      // Ranges of about equal lists: none more than twice its share of the whole.
      const lists = listsIn(chunks, { fromHigh: 0, toHigh: 256 });
      for (const range of ranges) expect(listsIn(chunks, range)).toBeLessThan((2 * lists) / threads);
      const joined = concatenatedJoins(joins);
      expect(joined.distinct).toBe(whole.trigramList.length);
      expect([...joined.trigramList.flatMap((part) => [...part])]).toEqual([...whole.trigramList]);
      expect(joined.postingStarts.flatMap((part) => [...part])).toEqual([...whole.postingStarts]);
      expect(Buffer.concat(joined.encoded)).toEqual(Buffer.from(whole.encoded));
    }
  });

  it('joins keys in one chunk, in some and in all, of chunks that run out of keys one after another', () => {
    const [first, some, every, last] = [0x000000, 0x010203, 0x7f0000, 0xffffff];
    // Lists whose bytes after the first delta are 15, 16 and 17 (the join copies 16 at a time).
    const runs = [15, 16, 17].map((length) => ({ key: 0x7f0100 + length, files: length + 1 }));
    const sizes = [200, 1, 150, 20_000];
    const files: number[][] = Array.from({ length: sizes.reduce((sum, size) => sum + size, 0) }, () => []);
    const add = (key: number, ...numbers: number[]) => numbers.forEach((file) => files[file]!.push(key));
    add(first, 200); // the second chunk's only file: the other chunks hold no key this small
    add(some, 5, 201 + 140, 351 + 19_999); // not in the second chunk; first deltas of 2 and 3 bytes
    files.forEach((_, file) => add(every, file));
    for (const { key, files: count } of runs) add(key, ...Array.from({ length: count }, (_, index) => 201 + 3 + index));
    add(last, 351 + 7); // in the last chunk only: every other chunk has run out before it
    const chunks = chunksOf(files, sizes);
    const expected = expectedLists(files);
    expect(joinedLists(mergeChunks(chunks))).toEqual(expected);
    // A range in which most chunks have no key at all, and one of a single high byte.
    const upper = mergeChunks(chunks, undefined, { fromHigh: 0x80, toHigh: 256 });
    expect(joinedLists(upper)).toEqual(new Map([[last, expected.get(last)!]]));
    const middle = mergeChunks(chunks, undefined, { fromHigh: 0x7f, toHigh: 0x80 });
    expect([...joinedLists(middle).keys()]).toEqual([every, ...runs.map(({ key }) => key)]);
    expect(joinedLists(mergeChunks([]))).toEqual(new Map());
  });
});

describe('splitJoin', () => {
  it('splits many short lists and a few long ones into ranges of about equal lists, not bytes', () => {
    // 3,000 keys in one file each over high bytes 1-30, and 10 keys in every file at high byte 200:
    // about as many bytes of each, but all lists but 20 are short (a join's cost is mostly per list).
    const files: number[][] = Array.from({ length: 600 }, () => []);
    for (let key = 0; key < 3000; key += 1) files[(key * 7) % 600]!.push(((1 + (key % 30)) << 16) | key);
    for (const keys of files) keys.push(...Array.from({ length: 10 }, (_, index) => (200 << 16) | index));
    const chunks = chunksOf(files, [250, 350]);
    const lists = listsIn(chunks, { fromHigh: 0, toHigh: 256 });
    for (const threads of [2, 3, 4]) {
      const ranges = splitJoin(chunks, threads);
      for (const range of ranges) expect(listsIn(chunks, range)).toBeLessThan((1.5 * lists) / threads);
    }
  });
});
