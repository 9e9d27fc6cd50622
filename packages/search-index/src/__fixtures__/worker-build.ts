// Test support: a whole build of a folder by an index thread (IndexWorker), loaded back through
// the same thread as a search would load it. Each test's workers are closed after it.
import { afterEach, expect } from 'vitest';
import { testdir } from '@clawsmith/test-utils';
import type { BuildRequest } from '../index-thread-protocol.js';
import { IndexWorker } from '../index-worker.js';
import { parseStoredIndex, type IndexKey, type StoredIndex } from '../stored-index.js';

const workers: IndexWorker[] = [];
afterEach(async () => {
  for (const worker of workers.splice(0)) await worker.close();
});

/** A request to build `root` into a new temporary folder's `index.bin`, and the key it stores. */
export function buildRequest(
  root: string,
  threads: number,
  minFilesPerPart: number,
  chunkKeys?: number,
): { request: BuildRequest; key: IndexKey; path: string } {
  const path = `${testdir()}/index.bin`;
  const key = { root, skippedFolders: ['.git', 'node_modules'], fileLimit: 1024 * 1024 };
  const request: BuildRequest = {
    type: 'build',
    root,
    skipped: key.skippedFolders,
    fileLimit: key.fileLimit,
    path,
    key,
    settledMs: 0,
    threads,
    minFilesPerPart,
    ...(chunkKeys === undefined ? {} : { chunkKeys }),
  };
  return { request, key, path };
}

/** Builds `root` on at most `threads` threads and loads the stored index it wrote. */
export async function buildInWorker(
  root: string,
  threads: number,
  minFilesPerPart: number,
  chunkKeys?: number,
): Promise<{ index: StoredIndex; parts: number }> {
  const worker = new IndexWorker();
  workers.push(worker);
  const { request, key, path } = buildRequest(root, threads, minFilesPerPart, chunkKeys);
  const built = await worker.request<{ stats: { parts: number } }>(request);
  const loaded = await worker.request<{ buffer?: ArrayBuffer; reason?: string }>({ type: 'load', path, key });
  expect(loaded.reason).toBeUndefined();
  return { index: parseStoredIndex(loaded.buffer!), parts: built.stats.parts };
}
