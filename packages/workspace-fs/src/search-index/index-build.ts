// A whole build in the index thread: walk, split the files into contiguous parts indexed by
// helper threads (one part stays on this thread), join them and write the stored index.
import { indexPart, type IndexedPart } from './index-part.js';
import type { BuildRequest, BuildStats, PartRequest } from './index-thread-protocol.js';
import { walkForIndex } from './index-walk.js';
import { mergeParts } from './posting-merge.js';
import { writeStoredIndex } from './stored-index-file.js';

/** Indexes one part in another thread. */
export type PartIndexer = (request: PartRequest) => Promise<IndexedPart>;

/** Builds and writes the index `request` describes; `indexElsewhere` runs the parts after the first. */
export async function buildIndex(request: BuildRequest, indexElsewhere: PartIndexer): Promise<BuildStats> {
  const { root, skipped, fileLimit, path, key, settledMs, threads, minFilesPerPart } = request;
  const started = Date.now();
  const { files, folders } = walkForIndex(root, new Set(skipped));
  const now = Date.now();
  const walkMs = now - started;
  const partCount = Math.max(1, Math.min(threads, Math.floor(files.length / minFilesPerPart)));
  const partSize = Math.ceil(files.length / partCount);
  const ranges = Array.from({ length: partCount }, (_, number) =>
    files.slice(number * partSize, (number + 1) * partSize),
  );
  const settings = { fileLimit, now, settledMs };
  // Started before this thread indexes its own part, and always awaited, so none is left running.
  const helpers = Promise.allSettled(ranges.slice(1).map((range) => indexElsewhere({ files: range, ...settings })));
  let first: IndexedPart;
  try {
    first = indexPart(ranges[0]!, settings);
  } finally {
    await helpers;
  }
  const others = (await helpers).map((outcome) => {
    if (outcome.status === 'rejected') throw outcome.reason;
    return outcome.value;
  });
  const indexedAt = Date.now();
  const parts = [first, ...others];
  const merged = mergeParts(parts);
  const joinedAt = Date.now();
  const count = merged.entries.length;
  const fileStats = new Float64Array(count * 4);
  const flags = new Uint8Array(count);
  merged.entries.forEach((entry, index) => {
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
    postings: merged.postings,
    textBytes: merged.textBytes,
    buildMs: Date.now() - started,
    parts: partCount,
  };
  const bytesOnDisk = writeStoredIndex(path, description, [
    ['fileStats', fileStats],
    ['fileFlags', flags],
    ['filePaths', joinedStrings(merged.entries.map((entry) => entry.relative))],
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
    postings: merged.postings,
    textBytes: merged.textBytes,
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
