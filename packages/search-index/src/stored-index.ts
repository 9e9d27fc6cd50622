import { hasTrigram } from './trigrams.js';

/**
 * The file layout: a 64-byte header (the magic, the format version as a u32 at 8, the body's
 * length as a double at 16, the SHA-256 of the body at 24), then the body: a u32 length and a
 * JSON description (the key, figures and each section's place), padded to 8 bytes, then the
 * sections, each 8-byte aligned.
 */
// Version 2 added hashed quadgram keys, version 3 the joint-gram keys, version 4 dropped the
// quadgram keys (60 % of the keys; the benchmark's rare identifiers are found as before), and
// version 5 leaves out the workspace's common keys, listing them in a section of their own (an
// older reader would take a common key's missing list for "no file holds it"): an index of
// another version is rebuilt, never trusted.
export const STORED_INDEX_FORMAT = { magic: 'CLWSIDX1', version: 5, headerBytes: 64 } as const;

/** Flag bits of a stored file. */
export const FILE_FLAG = { settled: 1, unreadable: 2 } as const;

/** What a stored index is built for; a stored index with another key is never used. */
export interface IndexKey {
  readonly root: string;
  readonly skippedFolders: readonly string[];
  readonly fileLimit: number;
}

/** Figures of a stored index, as its builder wrote them. */
export interface StoredIndexFigures {
  readonly builtAtMs: number;
  readonly files: number;
  readonly folders: number;
  readonly trigrams: number;
  /** Keys left out as common (common-keys.ts). */
  readonly commonKeys: number;
  readonly postings: number;
  readonly textBytes: number;
}

/**
 * A stored index, parsed from the body the worker checked: the files in walk order with the
 * `lstat` figures they had when read, the folders, and for each trigram the files (by number)
 * whose name or searched content holds it, as delta-coded varints.
 */
export interface StoredIndex {
  readonly figures: StoredIndexFigures;
  readonly filePaths: readonly string[];
  /** ino, size, mtimeMs, ctimeMs of each file. */
  readonly fileStats: Float64Array;
  readonly fileFlags: Uint8Array;
  readonly folderPaths: readonly string[];
  /** ino, mtimeMs, ctimeMs of each folder. */
  readonly folderStats: Float64Array;
  readonly trigrams: Uint32Array;
  readonly postingStarts: Uint32Array;
  readonly postings: Uint8Array;
  /**
   * Keys held by so many of the files that the build left them out (sorted): a search counts
   * every file as holding them ({@link isCommonKey}).
   */
  readonly commonKeys: Uint32Array;
  readonly bodyBytes: number;
}

// `count` tells an empty list from a list of one empty string (the workspace root folder).
function strings(bytes: Uint8Array, count: number): string[] {
  if (count === 0) return [];
  return new TextDecoder().decode(bytes).split('\0');
}

/** Parses a checked index body (the worker verified its checksum and key). */
export function parseStoredIndex(body: ArrayBuffer): StoredIndex {
  const view = new DataView(body);
  const descriptionLength = view.getUint32(0, true);
  const description = JSON.parse(
    new TextDecoder().decode(new Uint8Array(body, 4, descriptionLength)),
  ) as StoredIndexFigures & {
    sections: Record<string, [number, number]>;
  };
  const base = Math.ceil((4 + descriptionLength) / 8) * 8;
  const section = (name: string): [number, number] => {
    const found = description.sections[name];
    if (!found) throw new Error(`The stored index has no ${name} section`);
    return [base + found[0], found[1]];
  };
  const bytes = (name: string) => {
    const [offset, length] = section(name);
    return new Uint8Array(body, offset, length);
  };
  const doubles = (name: string) => {
    const [offset, length] = section(name);
    return new Float64Array(body, offset, length / 8);
  };
  const words = (name: string) => {
    const [offset, length] = section(name);
    return new Uint32Array(body, offset, length / 4);
  };
  const filePaths = strings(bytes('filePaths'), description.files);
  const folderPaths = strings(bytes('folderPaths'), description.folders);
  const index: StoredIndex = {
    figures: {
      builtAtMs: description.builtAtMs,
      files: description.files,
      folders: description.folders,
      trigrams: description.trigrams,
      commonKeys: description.commonKeys,
      postings: description.postings,
      textBytes: description.textBytes,
    },
    trigrams: words('trigrams'),
    postings: bytes('postings'),
    filePaths,
    fileStats: doubles('fileStats'),
    fileFlags: bytes('fileFlags'),
    folderPaths,
    folderStats: doubles('folderStats'),
    postingStarts: words('postingStarts'),
    commonKeys: words('commonKeys'),
    bodyBytes: body.byteLength,
  };
  if (filePaths.length !== description.files || folderPaths.length !== description.folders)
    throw new Error('The stored index does not hold as many paths as it says');
  return index;
}

/** Whether `key` is one the build left out as common (every file counts as holding it). */
export function isCommonKey(index: StoredIndex, key: number): boolean {
  return hasTrigram(index.commonKeys, key);
}

/**
 * The files (by number, ascending) whose stored trigrams include `trigram`; none for a common
 * key, whose files are not listed ({@link isCommonKey}).
 */
export function postingsOf(index: StoredIndex, trigram: number): Uint32Array {
  const { trigrams } = index;
  let low = 0;
  let high = trigrams.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = trigrams[middle]!;
    if (value === trigram)
      return decodePostingList(index.postings, index.postingStarts[middle]!, index.postingStarts[middle + 1]!);
    if (value < trigram) low = middle + 1;
    else high = middle - 1;
  }
  return new Uint32Array(0);
}

/** The file numbers of one delta-varint posting list, `bytes` from `start` to `end` (the stored format). */
export function decodePostingList(bytes: Uint8Array, start: number, end: number): Uint32Array {
  const out = new Uint32Array(end - start);
  let count = 0;
  let previous = -1;
  let position = start;
  while (position < end) {
    let delta = 0;
    let scale = 1;
    let byte: number;
    do {
      byte = bytes[position++]!;
      delta += (byte & 127) * scale;
      scale *= 128;
    } while (byte >= 128);
    previous += delta;
    out[count++] = previous;
  }
  return out.subarray(0, count);
}
