import { describe, expect, it } from 'vitest';
import { testdir } from '@clawsmith/test-utils';
import { buildIndex, type PartHelper } from './index-build.js';
import { indexPart } from './index-part.js';
import type { JoinRequest, PartRequest } from './index-thread-protocol.js';
import { walkedFiles } from './index-walk.js';
import { mergeChunks } from './posting-merge.js';
import { readStoredIndex } from './stored-index-file.js';
import { parseStoredIndex } from './stored-index.js';

function workspace(files: number): string {
  const contents: Record<string, string> = {};
  for (let number = 0; number < files; number += 1) {
    contents[`src/file${String(number).padStart(4, '0')}.ts`] = `export const value${number} = ${number};\n`;
  }
  return testdir(contents);
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
  const path = `${testdir()}/index.bin`;
  const key = { root, skippedFolders: ['.git'], fileLimit: 1 << 20 };
  const stats = await buildIndex(
    {
      type: 'build',
      root,
      skipped: key.skippedFolders,
      fileLimit: key.fileLimit,
      path,
      key,
      settledMs: 0,
      threads,
      minFilesPerPart,
    },
    start,
  );
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
      expect([...index.trigrams]).toEqual([...alone.index.trigrams]);
      expect([...index.postingStarts]).toEqual([...alone.index.postingStarts]);
      expect(Buffer.from(index.postings)).toEqual(Buffer.from(alone.index.postings));
      expect(index.filePaths.length).toBe(403);
    },
  );
});
