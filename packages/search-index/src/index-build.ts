// A whole build in the index thread: walk, split the files into contiguous parts indexed by
// helper threads (one part stays on this thread), join them (each thread a range of keys) and
// write the stored index.
import { sampleCommonKeys } from './common-keys.js';
import { DEFAULT_CHUNK_KEYS, indexPart, type IndexedPart, type SharedRange } from './index-part.js';
import type { BuildRequest, BuildStats, JoinRequest, PartRequest } from './index-thread-protocol.js';
import { IndexWalker, joinedPaths, type WalkedFile, type WalkedFolder } from './index-walk.js';
import { FILE_FIGURES, type PartFiles } from './part-files.js';
import { PartScanner } from './part-scanner.js';
import { concatenatedJoins, mergeChunks, splitJoin, type MergedPostings } from './posting-merge.js';
import { writeStoredIndex } from './stored-index-file.js';

/** A helper thread, started and waiting for the one part it will index. */
export interface PartHelper {
  /** Indexes `request`'s part (called once). */
  index(request: PartRequest): Promise<IndexedPart>;
  /** Joins a range of keys of every part's chunks (called once, after `index`). */
  join(request: JoinRequest): Promise<MergedPostings>;
  /** Stops the helper (every helper is stopped once the build no longer needs it). */
  stop(): void;
}

/**
 * Builds and writes the index `request` describes; `startHelper` starts a thread for a part after
 * the first. A helper is started during the walk, once the files found so far make it certain
 * that its part will exist: starting a thread took 0.1-1.4 s on a loaded machine, in which the
 * helper indexed nothing while the index thread did.
 */
export async function buildIndex(request: BuildRequest, startHelper: () => PartHelper): Promise<BuildStats> {
  const { root, skipped, fileLimit, settledMs, threads, minFilesPerPart } = request;
  const started = Date.now();
  const early: PartHelper[] = [];
  let files: WalkedFile[];
  let folders: WalkedFolder[];
  try {
    const walker = new IndexWalker(root, new Set(skipped));
    // The part count is min(threads, floor(files / minFilesPerPart)), so the k-th helper (from 1)
    // is needed once (k + 1) * minFilesPerPart files are found, and never given up after.
    while (early.length + 1 < threads && walker.walkUntil((early.length + 2) * minFilesPerPart)) {
      early.push(startHelper());
    }
    walker.walkAll();
    ({ files, folders } = walker);
  } catch (error) {
    for (const helper of early) helper.stop();
    throw error;
  }
  const now = Date.now();
  const walkMs = now - started;
  const partCount = Math.max(1, Math.min(threads, Math.floor(files.length / minFilesPerPart)));
  const chunkKeys = request.chunkKeys ?? DEFAULT_CHUNK_KEYS;
  const jobs = planParts(files, partCount);
  const helpers = jobs.slice(1).map((_, number) => early[number] ?? startHelper());
  let joined: ReturnType<typeof concatenatedJoins>;
  let parts: IndexedPart[];
  let indexedAt: number;
  let commonKeys: Uint32Array;
  try {
    // This thread's scanner samples the common keys before its part (a helper is told them).
    const scanner = new PartScanner(fileLimit);
    commonKeys = sampleCommonKeys(files, { fileLimit, now, settledMs }, scanner);
    const settings = { fileLimit, now, settledMs, chunkKeys, commonKeys };
    // Started before this thread indexes its own part, and always awaited, so none is left running.
    const helperParts = Promise.allSettled(
      jobs.slice(1).map(({ files: range, shared }, number) =>
        helpers[number]!.index({
          root,
          paths: joinedPaths(range),
          ...settings,
          ...(shared ? { shared } : {}),
        }),
      ),
    );
    let first: IndexedPart;
    try {
      first = indexPart(jobs[0]!.files, settings, jobs[0]!.shared, scanner);
    } finally {
      await helperParts;
    }
    parts = [first, ...settledValues(await helperParts)];
    indexedAt = Date.now();
    // Every thread joins a range of keys of all the chunks at once: this one the first, in its
    // scanner memory, whose pages the scans have already touched.
    const chunks = parts.flatMap((part) => part.chunks);
    const [ownRange, ...helperRanges] = splitJoin(chunks, parts.length);
    const helperJoins = Promise.allSettled(
      helperRanges.map((range, number) => helpers[number]!.join({ chunks, range })),
    );
    let ownJoin: MergedPostings;
    try {
      ownJoin = mergeChunks(chunks, (bytes) => scanner.spareMemory(bytes), ownRange);
    } finally {
      await helperJoins;
    }
    joined = concatenatedJoins([ownJoin, ...settledValues(await helperJoins)]);
  } finally {
    // Before the write: what the helpers joined stays, in their shared memories.
    for (const helper of helpers) helper.stop();
  }
  return writeBuild(request, { started, now, indexedAt, walkMs }, folders, parts, joined, commonKeys);
}

function settledValues<Value>(outcomes: readonly PromiseSettledResult<Value>[]): Value[] {
  return outcomes.map((outcome) => {
    if (outcome.status === 'rejected') throw outcome.reason;
    return outcome.value;
  });
}

/** When a build's steps ended (epoch milliseconds), for its figures. */
interface BuildTimes {
  readonly started: number;
  /** The walk's end. */
  readonly now: number;
  readonly indexedAt: number;
  readonly walkMs: number;
}

// Writes the stored index of a build's parts and joined lists; returns the build's figures.
function writeBuild(
  request: BuildRequest,
  { started, now, indexedAt, walkMs }: BuildTimes,
  folders: readonly WalkedFolder[],
  parts: readonly IndexedPart[],
  merged: ReturnType<typeof concatenatedJoins>,
  commonKeys: Uint32Array,
): BuildStats {
  const { path, key } = request;
  const partCount = parts.length;
  const postings = parts.reduce((sum, part) => sum + part.postings, 0);
  const textBytes = parts.reduce((sum, part) => sum + part.textBytes, 0);
  const joinedAt = Date.now();
  const { relative, stats: fileStats, flags } = joinedFiles(parts.map((part) => part.files));
  const count = relative.length;
  const folderStats = new Float64Array(folders.length * 3);
  folders.forEach((folder, index) => {
    folderStats[index * 3] = folder.ino;
    folderStats[index * 3 + 1] = folder.mtimeMs;
    folderStats[index * 3 + 2] = folder.ctimeMs;
  });
  const distinct = merged.distinct;
  // The build's own time and parts are kept for whoever reads the file (the benchmark does).
  const description = {
    key,
    builtAtMs: now,
    files: count,
    folders: folders.length,
    trigrams: distinct,
    commonKeys: commonKeys.length,
    postings,
    textBytes,
    buildMs: Date.now() - started,
    parts: partCount,
  };
  const bytesOnDisk = writeStoredIndex(path, description, [
    ['fileStats', fileStats],
    ['fileFlags', flags],
    ['filePaths', joinedStrings(relative)],
    ['folderStats', folderStats],
    ['folderPaths', joinedStrings(folders.map((folder) => folder.relative))],
    ['trigrams', merged.trigramList],
    ['postingStarts', merged.postingStarts],
    ['postings', merged.encoded],
    ['commonKeys', commonKeys],
  ]);
  return {
    files: count,
    folders: folders.length,
    trigrams: distinct,
    commonKeys: commonKeys.length,
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

// The parts' files one after another, as one part would have held them.
function joinedFiles(parts: readonly PartFiles[]): PartFiles {
  if (parts.length === 1) return parts[0]!;
  const relative = parts.flatMap((part) => part.relative);
  const stats = new Float64Array(relative.length * FILE_FIGURES);
  const flags = new Uint8Array(relative.length);
  let count = 0;
  for (const part of parts) {
    stats.set(part.stats, count * FILE_FIGURES);
    flags.set(part.flags, count);
    count += part.relative.length;
  }
  return { relative, stats, flags };
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
