import { describe, expect, it } from 'vitest';
import { testdir } from '@clawsmith/test-utils';
import { buildInWorker } from './__fixtures__/worker-build.js';
import { postingsOf } from './stored-index.js';

// A workspace whose files share some trigrams and not others, with a binary file, a folded
// character, a file whose name alone matches, and enough files that a part's first file number
// for a trigram can take two varint bytes (skipped when the parts are joined).
function workspace(): string {
  const files: Record<string, string | Buffer> = {
    'a/kelvin.txt': 'temperature in \u212Aelvin\n',
    'a/binary.bin': Buffer.from([0x61, 0x62, 0x63, 0x00, 0x64, 0x65, 0x66]),
    'b/named-rareword.md': 'body without it\n',
  };
  for (let number = 0; number < 400; number += 1) {
    files[`src/part${number % 7}/file${number}.ts`] =
      `export const value${number} = ${number * 7919};\n` + (number % 3 === 0 ? 'shared marker line\n' : '');
  }
  return testdir(files);
}

describe('a build split across helper threads', () => {
  it.each([
    ['three threads', 3, undefined],
    ['three threads sorting a few files at a time', 3, 200],
    ['one thread sorting each file alone', 1, 1],
  ])('stores exactly what a build on one thread stores (%s)', async (_name, threads, chunkKeys) => {
    const root = workspace();
    const single = await buildInWorker(root, 1, 1);
    const split = await buildInWorker(root, threads, 1, chunkKeys);
    expect(single.parts).toBe(1);
    expect(split.parts).toBe(threads);
    expect(split.index.filePaths).toEqual(single.index.filePaths);
    expect([...split.index.fileFlags]).toEqual([...single.index.fileFlags]);
    // Each file's inode, size and times, where the parts put them (a part taken from its end reverses them).
    expect([...split.index.fileStats]).toEqual([...single.index.fileStats]);
    expect([...split.index.trigrams]).toEqual([...single.index.trigrams]);
    expect(split.index.figures.postings).toBe(single.index.figures.postings);
    for (const trigram of single.index.trigrams) {
      expect([...postingsOf(split.index, trigram)]).toEqual([...postingsOf(single.index, trigram)]);
    }
    expect(Buffer.from(split.index.postings)).toEqual(Buffer.from(single.index.postings));
  });

  it('stays on one thread when the parts would be smaller than the minimum', async () => {
    const root = workspace();
    expect((await buildInWorker(root, 4, 500)).parts).toBe(1);
    expect((await buildInWorker(root, 4, 150)).parts).toBe(2);
  });
});
