// A whole build in the index thread: walk, split the files into contiguous parts indexed by
// helper threads (one part stays on this thread), join them and write the stored index.
import { DEFAULT_CHUNK_KEYS, indexPart, type IndexedPart, type SharedRange } from './index-part.js';
import type { BuildRequest, BuildStats, PartRequest } from './index-thread-protocol.js';
import { joinedPaths, walkForIndex, type WalkedFile, type WalkedFolder } from './index-walk.js';
import { PartScanner } from './part-scanner.js';
import { mergeChunks } from './posting-merge.js';
import { writeStoredIndex } from './stored-index-file.js';

/** A helper thread, started and waiting for the one part it will index. */
export interface PartHelper {
  /** Indexes `request`'s part (called once). */
  index(request: PartRequest): Promise<IndexedPart>;
  /** Stops a helper that was never given a part. */
  stop(): void;
}

/**
 * Builds and writes the index `request` describes; `startHelper` starts a thread for a part after
 * the first. A helper is started during the walk, once the files found so far make it certain
 * that its part will exist: starting a thread took 0.1-1.4 s on a loaded machine, in which the
 * helper indexed nothing while the index thread did.
 */
export async function buildIndex(request: BuildRequest, startHelper: () => PartHelper): Promise<BuildStats> {
  const { root, skipped, fileLimit, path, key, settledMs, threads, minFilesPerPart } = request;
  const started = Date.now();
  const early: PartHelper[] = [];
  let files: WalkedFile[];
  let folders: WalkedFolder[];
  try {
    ({ files, folders } = walkForIndex(root, new Set(skipped), (found) => {
      // The part count is min(threads, floor(files / minFilesPerPart)), so the k-th helper (from
      // 1) is needed once (k + 1) * minFilesPerPart files are found, and never given up after.
      if (early.length + 1 < threads && found === (early.length + 2) * minFilesPerPart) early.push(startHelper());
    }));
  } catch (error) {
    for (const helper of early) helper.stop();
    throw error;
  }
  const now = Date.now();
  const walkMs = now - started;
  const partCount = Math.max(1, Math.min(threads, Math.floor(files.length / minFilesPerPart)));
  const settings = { fileLimit, now, settledMs, chunkKeys: request.chunkKeys ?? DEFAULT_CHUNK_KEYS };
  const jobs = planParts(files, partCount);
  // Started before this thread indexes its own part, and always awaited, so none is left running.
  const helpers = Promise.allSettled(
    jobs.slice(1).map(({ files: range, shared }, number) =>
      (early[number] ?? startHelper()).index({
        root,
        paths: joinedPaths(range),
        ...settings,
        ...(shared ? { shared } : {}),
      }),
    ),
  );
  let first: IndexedPart;
  const scanner = new PartScanner(fileLimit);
  try {
    first = indexPart(jobs[0]!.files, settings, jobs[0]!.shared, scanner);
  } finally {
    await helpers;
  }
  const others = (await helpers).map((outcome) => {
    if (outcome.status === 'rejected') throw outcome.reason;
    return outcome.value;
  });
  const indexedAt = Date.now();
  const parts = [first, ...others];
  const entries = parts.flatMap((part) => part.entries);
  // Joined in this thread's scanner memory, whose pages the scans have already touched.
  const merged = mergeChunks(
    parts.flatMap((part) => part.chunks),
    (bytes) => scanner.spareMemory(bytes),
  );
  const postings = parts.reduce((sum, part) => sum + part.postings, 0);
  const textBytes = parts.reduce((sum, part) => sum + part.textBytes, 0);
  const joinedAt = Date.now();
  const count = entries.length;
  const fileStats = new Float64Array(count * 4);
  const flags = new Uint8Array(count);
  entries.forEach((entry, index) => {
    fileStats[index * 4] = entry.ino;
    fileStats[index * 4 + 1] = entry.size;
    fileStats[index * 4 + 2] = entry.mtimeMs;
    fileStats[index * 4 + 3] = entry.ctimeMs;
    flags[index] = entry.flags;
  });
  const folderStats = new Float64Array(folders.length * 3);
  folders.forEach((folder, index) => {
    folderStats[index * 3] = folder.ino;
    folderStats[index * 3 + 1] = folder.mtimeMs;
    folderStats[index * 3 + 2] = folder.ctimeMs;
  });
  const distinct = merged.trigramList.length;
  // The build's own time and parts are kept for whoever reads the file (the benchmark does).
  const description = {
    key,
    builtAtMs: now,
    files: count,
    folders: folders.length,
    trigrams: distinct,
    postings,
    textBytes,
    buildMs: Date.now() - started,
    parts: partCount,
  };
  const bytesOnDisk = writeStoredIndex(path, description, [
    ['fileStats', fileStats],
    ['fileFlags', flags],
    ['filePaths', joinedStrings(entries.map((entry) => entry.relative))],
    ['folderStats', folderStats],
    ['folderPaths', joinedStrings(folders.map((folder) => folder.relative))],
    ['trigrams', merged.trigramList],
    ['postingStarts', merged.postingStarts],
    ['postings', merged.encoded],
  ]);
  return {
    files: count,
    folders: folders.length,
    trigrams: distinct,
    postings,
    textBytes,
    bytesOnDisk,
    parts: partCount,
    buildMs: Date.now() - started,
    phasesMs: {
      walk: walkMs,
      index: indexedAt - now,
      join: joinedAt - indexedAt,
      parts: parts.map((part) => part.ms),
      write: Date.now() - joinedAt,
    },
  };
}

function joinedStrings(strings: readonly string[]): Uint8Array {
  return Buffer.from(strings.join('\0'), 'utf8');
}

/** One thread's share of a build: a range of files, alone or shared from one end. */
interface PartJob {
  readonly files: readonly WalkedFile[];
  readonly shared?: SharedRange;
}

/**
 * Splits the files over `threads` threads, in walk order: two threads share each range, one from
 * each end, so they finish together however the cost of files is spread (splitting by count left
 * one thread a fifth slower); an odd thread out has a range alone. Ranges are sized by their
 * threads. The jobs, and so the parts they return, are in walk order.
 */
function planParts(files: readonly WalkedFile[], threads: number): PartJob[] {
  if (threads === 1) return [{ files }];
  const ranges = Math.ceil(threads / 2);
  const claimed = new Int32Array(new SharedArrayBuffer(4 * ranges));
  const jobs: PartJob[] = [];
  let start = 0;
  let threadsSoFar = 0;
  for (let slot = 0; slot < ranges; slot += 1) {
    const rangeThreads = Math.min(2, threads - threadsSoFar);
    threadsSoFar += rangeThreads;
    const end = Math.round((files.length * threadsSoFar) / threads);
    const range = files.slice(start, end);
    start = end;
    if (rangeThreads === 1) jobs.push({ files: range });
    else {
      jobs.push({ files: range, shared: { claimed, slot, fromEnd: false } });
      jobs.push({ files: range, shared: { claimed, slot, fromEnd: true } });
    }
  }
  return jobs;
}
