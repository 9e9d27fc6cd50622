import { describe, expect, it } from 'vitest';
import { sortPostings } from './posting-lists.js';
import { sharedMemory } from './wasm-api.js';
import { decodePostingList } from './stored-index.js';

/** Files with random distinct trigrams from a pool that shares high bytes and spans all 2^24. */
function randomFiles(fileCount: number): number[][] {
  const pool = Array.from({ length: 3000 }, (_, index) =>
    index % 3 === 0 ? 0x616200 + (index % 256) : Math.floor(Math.random() * (1 << 24)),
  );
  return Array.from({ length: fileCount }, (_, file) => {
    // Some files hold most of the pool, most hold a few: lists of one and of hundreds.
    const share = file % 50 === 0 ? 0.9 : 0.01;
    return [...new Set(pool.filter(() => Math.random() < share))];
  });
}

/** Each trigram's files, ascending, as the definition says. */
function reference(files: number[][]): Map<number, number[]> {
  const lists = new Map<number, number[]>();
  files.forEach((trigrams, file) => {
    for (const trigram of trigrams) {
      const list = lists.get(trigram);
      if (list) list.push(file);
      else lists.set(trigram, [file]);
    }
  });
  return new Map([...lists].sort(([left], [right]) => left - right));
}

/** Each list's files: its deltas up to the 0 byte that ends it. */
function decodeAll(bytes: Uint8Array): number[][] {
  const lists: number[][] = [];
  for (let position = 0; position < bytes.length;) {
    const end = bytes.indexOf(0, position);
    expect(end).toBeGreaterThan(position);
    lists.push([...decodePostingList(bytes, position, end)]);
    position = end + 1;
  }
  return lists;
}

/** Sorts `files` as the scanner leaves them: lists one after another, after some garbage. */
function sorted(files: number[][], addedInReverse: boolean) {
  const memory = sharedMemory(1);
  const address = 4096;
  const added = addedInReverse ? [...files].reverse() : files;
  const pairs = added.reduce((sum, trigrams) => sum + trigrams.length, 0);
  memory.grow(Math.ceil((address + 4 * pairs) / 65536));
  const words = new Uint32Array(memory.buffer);
  words.fill(0xdeadbeef);
  const fileStarts: number[] = [];
  let at = 0;
  for (const trigrams of added) {
    fileStarts.push(at);
    words.set(trigrams, address / 4 + at);
    at += trigrams.length;
  }
  return sortPostings({ memory, address, count: pairs }, fileStarts, addedInReverse);
}

describe('sortPostings', () => {
  for (const addedInReverse of [false, true]) {
    it(`lists each trigram's files ascending, delta-coded, each ended by a 0 byte, with its last (${addedInReverse ? 'files added last first' : 'files added in walk order'})`, () => {
      const files = randomFiles(400);
      const expected = reference(files);
      const postings = sorted(files, addedInReverse);
      expect([...postings.trigramList]).toEqual([...expected.keys()]);
      expect(decodeAll(postings.encoded)).toEqual([...expected.values()]);
      expect([...postings.lastFiles]).toEqual([...expected.values()].map((list) => list.at(-1)));
    });
  }

  it('numbers files past 65,536 (four-byte file numbers while sorting)', () => {
    const files = Array.from({ length: 70_000 }, (_, file) => [
      0x616263,
      ...(file % 1000 === 999 ? [0x787978] : []),
      (file * 7919) & 0xffffff,
    ]);
    const expected = reference(files);
    const postings = sorted(files, false);
    expect([...postings.trigramList]).toEqual([...expected.keys()]);
    expect(decodeAll(postings.encoded)).toEqual([...expected.values()]);
    expect(postings.lastFiles[postings.trigramList.indexOf(0x616263)]).toBe(69_999);
  });

  it('sorts no trigrams into empty lists', () => {
    const postings = sorted([[], []], false);
    expect([postings.trigramList.length, postings.encoded.length, postings.lastFiles.length]).toEqual([0, 0, 0]);
  });
});
