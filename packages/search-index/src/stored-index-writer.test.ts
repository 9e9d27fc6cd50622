import { existsSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testdir } from '@clawsmith/test-utils';
import { sortPostings } from './posting-lists.js';
import { mergeChunks, type PostingChunk } from './posting-merge.js';
import { StoredIndexWriter, readStoredIndex, type Section } from './stored-index-file.js';
import { parseStoredIndex, postingsOf } from './stored-index.js';
import { webAssembly } from './wasm-api.js';

// Each file's keys: a key every file holds (a long list), one every seventh file holds, and one of its own.
function fileKeys(file: number): number[] {
  return [0x616263, ...(file % 7 === 0 ? [0x787978] : []), 0x100000 + file];
}

// The posting lists of files [from, to), numbered from 0, sorted as a build sorts a chunk.
function chunk(from: number, to: number): PostingChunk {
  const keys = Array.from({ length: to - from }, (_, file) => fileKeys(from + file));
  const pairs = keys.reduce((sum, list) => sum + list.length, 0);
  const memory = new webAssembly.Memory({ initial: 1 });
  memory.grow(Math.ceil((4096 + 4 * pairs) / 65536));
  const words = new Uint32Array(memory.buffer);
  const fileStarts: number[] = [];
  let at = 0;
  for (const list of keys) {
    fileStarts.push(at);
    words.set(list, 1024 + at);
    at += list.length;
  }
  return { ...sortPostings({ memory, address: 4096, count: pairs }, fileStarts, false), files: to - from };
}

const KEY = { root: '/workspace', skippedFolders: ['.git'], fileLimit: 1024 };
const SECTIONS = [
  'fileStats',
  'fileFlags',
  'filePaths',
  'folderStats',
  'folderPaths',
  'postings',
  'trigrams',
  'postingStarts',
];

function earlySections(files: number): Section[] {
  return [
    ['fileStats', new Float64Array(files * 4).fill(7)],
    ['fileFlags', new Uint8Array(files).fill(1)],
    ['filePaths', Buffer.from(Array.from({ length: files }, (_, file) => `f${file}.ts`).join('\0'))],
    ['folderStats', new Float64Array(3).fill(3)],
    ['folderPaths', new Uint8Array(0)],
  ];
}

function description(files: number, trigrams: number) {
  return { key: KEY, builtAtMs: 1, files, folders: 1, trigrams, postings: 0, textBytes: 0, buildMs: 2, parts: 1 };
}

describe('writing the joined lists while they are joined', () => {
  it('hands on final bytes in order, and the file written as it goes holds exactly the joined lists', async () => {
    const files = 3000;
    const chunks = [chunk(0, 1000), chunk(1000, 1900), chunk(1900, files)];
    const whole = chunk(0, files);
    const path = `${testdir()}/index.bin`;
    const writer = new StoredIndexWriter(
      path,
      description(files, Number.MAX_SAFE_INTEGER),
      SECTIONS,
      earlySections(files),
    );
    const reports: { final: number; bytes: Buffer }[] = [];
    let handedOn = 0;
    const merged = mergeChunks(
      chunks,
      undefined,
      (encoded, final) => {
        reports.push({ final, bytes: Buffer.from(encoded.subarray(0, final)) });
        writer.writeGrowing(encoded, handedOn, final);
        handedOn = final;
      },
      64,
    );
    // Several pieces, each a prefix of the final lists: nothing handed on changed afterwards.
    expect(reports.length).toBeGreaterThan(3);
    expect(reports.at(-1)!.final).toBe(merged.encoded.length);
    for (const report of reports) expect(report.bytes).toEqual(Buffer.from(merged.encoded.subarray(0, report.final)));
    expect(Buffer.from(merged.encoded)).toEqual(Buffer.from(whole.encoded));

    const bytes = await writer.finish(
      description(files, merged.trigramList.length),
      ['postings', merged.encoded],
      [
        ['trigrams', merged.trigramList],
        ['postingStarts', merged.postingStarts],
      ],
    );
    const read = readStoredIndex(path, KEY);
    expect('buffer' in read).toBe(true);
    const index = parseStoredIndex((read as { buffer: ArrayBuffer }).buffer);
    expect(index.bodyBytes + 64).toBe(bytes);
    expect(index.filePaths.length).toBe(files);
    expect([...index.fileFlags].every((flag) => flag === 1)).toBe(true);
    expect([...index.trigrams]).toEqual([...whole.trigramList]);
    expect([...postingsOf(index, 0x787978)]).toEqual(Array.from({ length: 429 }, (_, slot) => slot * 7));
    expect(postingsOf(index, 0x616263).length).toBe(files);
    expect([...postingsOf(index, 0x100000 + 2999)]).toEqual([2999]);
    expect(readdirSync(dirname(path))).toEqual(['index.bin']);
  });

  it('writes a single chunk, handed on at once, the same way', async () => {
    const only = chunk(0, 50);
    const path = `${testdir()}/index.bin`;
    const writer = new StoredIndexWriter(path, description(50, Number.MAX_SAFE_INTEGER), SECTIONS, earlySections(50));
    const merged = mergeChunks([only], undefined, (encoded, final) => writer.writeGrowing(encoded, 0, final));
    await writer.finish(
      description(50, merged.trigramList.length),
      ['postings', merged.encoded],
      [
        ['trigrams', merged.trigramList],
        ['postingStarts', merged.postingStarts],
      ],
    );
    const index = parseStoredIndex((readStoredIndex(path, KEY) as { buffer: ArrayBuffer }).buffer);
    expect([...postingsOf(index, 0x787978)]).toEqual([0, 7, 14, 21, 28, 35, 42, 49]);
  });

  it('leaves no file behind when discarded, or when the description outgrows its room', async () => {
    const folder = testdir();
    const discarded = new StoredIndexWriter(`${folder}/index.bin`, description(1, 1), SECTIONS, earlySections(1));
    discarded.writeGrowing(new Uint8Array(16).fill(9), 0, 16);
    await discarded.discard();
    expect(readdirSync(folder)).toEqual([]);

    // Planned for a one-digit trigram count, finished with a longer one.
    const outgrown = new StoredIndexWriter(`${folder}/index.bin`, description(1, 1), SECTIONS, earlySections(1));
    await expect(
      outgrown.finish(
        { ...description(1, 1), trigrams: 12345, note: 'x'.repeat(400) },
        ['postings', new Uint8Array(0)],
        [
          ['trigrams', new Uint32Array(0)],
          ['postingStarts', new Uint32Array(1)],
        ],
      ),
    ).rejects.toThrow('longer than its reserved room');
    expect(readdirSync(folder)).toEqual([]);
    expect(existsSync(`${folder}/index.bin`)).toBe(false);
  });

  it('refuses bytes handed on out of order', () => {
    const writer = new StoredIndexWriter(`${testdir()}/index.bin`, description(1, 1), SECTIONS, earlySections(1));
    expect(() => writer.writeGrowing(new Uint8Array(16), 8, 16)).toThrow('out of order');
    return writer.discard();
  });
});
