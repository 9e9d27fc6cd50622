import { lstatSync, utimesSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testdir } from '@clawsmith/test-utils';
import { buildRequest } from './__fixtures__/worker-build.js';
import { buildIndex, type PartHelper } from './index-build.js';
import { indexPart } from './index-part.js';
import type { JoinRequest, PartRequest } from './index-thread-protocol.js';
import { walkedFiles } from './index-walk.js';
import { mergeChunks } from './posting-merge.js';
import { readStoredIndex } from './stored-index-file.js';
import { FILE_FLAG, parseStoredIndex } from './stored-index.js';

// Every seventh file is modified in the future (not settled, and its modification time apart from
// its change time), so the files' flags and times differ from one file to the next.
function workspace(files: number): string {
  const contents: Record<string, string> = {};
  const name = (number: number) => `src/file${String(number).padStart(4, '0')}.ts`;
  for (let number = 0; number < files; number += 1) {
    contents[name(number)] = `export const value${number} = ${number};\n`;
  }
  const root = testdir(contents);
  const future = new Date(Date.now() + 3_600_000);
  for (let number = 0; number < files; number += 7) utimesSync(`${root}/${name(number)}`, future, future);
  return root;
}

// Helpers that index their part and join their keys on this thread (the real work), counting
// starts, parts, joins and stops.
function helpers() {
  const counts = { started: 0, indexed: 0, joined: 0, stopped: 0 };
  const start = (): PartHelper => {
    counts.started += 1;
    return {
      index: async (request: PartRequest) => {
        counts.indexed += 1;
        return indexPart(walkedFiles(request.root, request.paths), request, request.shared);
      },
      join: async ({ chunks, range }: JoinRequest) => {
        counts.joined += 1;
        return mergeChunks(chunks, undefined, range);
      },
      stop: () => {
        counts.stopped += 1;
      },
    };
  };
  return { counts, start };
}

async function build(root: string, threads: number, minFilesPerPart: number, start: () => PartHelper) {
  const { request, key, path } = buildRequest(root, threads, minFilesPerPart);
  const stats = await buildIndex(request, start);
  const read = readStoredIndex(path, key);
  if (!('buffer' in read)) throw new Error(read.reason);
  return { stats, index: parseStoredIndex(read.buffer) };
}

describe('buildIndex', () => {
  it.each([
    [4, 100, 4],
    [4, 150, 2],
    [2, 100, 2],
    [4, 500, 1],
  ])(
    'starts exactly the helpers its parts need, each given one part and one range of keys to join, and stops them (%i threads, parts of %i files)',
    async (threads, minimum, parts) => {
      const root = workspace(403);
      const { counts, start } = helpers();
      const { stats, index } = await build(root, threads, minimum, start);
      expect(stats.parts).toBe(parts);
      expect(counts).toEqual({ started: parts - 1, indexed: parts - 1, joined: parts - 1, stopped: parts - 1 });
      const alone = await build(root, 1, minimum, helpers().start);
      expect(index.filePaths).toEqual(alone.index.filePaths);
      // Each file's figures beside its path (a helper taking its range from the end reverses them).
      expect([...index.fileStats]).toEqual([...alone.index.fileStats]);
      expect([...index.fileFlags]).toEqual([...alone.index.fileFlags]);
      expect([...index.trigrams]).toEqual([...alone.index.trigrams]);
      expect([...index.postingStarts]).toEqual([...alone.index.postingStarts]);
      expect(Buffer.from(index.postings)).toEqual(Buffer.from(alone.index.postings));
      expect(index.filePaths.length).toBe(403);
      expect(index.fileFlags.filter((flags) => flags === 0).length).toBeGreaterThanOrEqual(58);
      // The figures are each file's own (what a sweep compares with lstat later), its flag settled
      // when both its times were before the build's (settledMs 0): not those modified in the future.
      index.filePaths.forEach((relative, number) => {
        const stats = lstatSync(`${root}/${relative}`);
        expect([...index.fileStats.subarray(number * 4, number * 4 + 4)]).toEqual([
          stats.ino,
          stats.size,
          stats.mtimeMs,
          stats.ctimeMs,
        ]);
        const settled = Math.max(stats.mtimeMs, stats.ctimeMs) < index.figures.builtAtMs;
        expect(index.fileFlags[number]).toBe(settled ? FILE_FLAG.settled : 0);
      });
    },
  );
});
