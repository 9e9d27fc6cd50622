// The messages between the host (index-worker.ts) and the index thread (index-thread.ts), and
// between the index thread and its helper threads. Both sides import these types, so a field
// renamed on one side is a type error on the other.
import type { IndexedPart, PartSettings, SharedRange } from './index-part.js';
import type { HighByteRange, MergedPostings, PostingChunk } from './posting-merge.js';
import type { StoredIndexRead } from './stored-index-file.js';
import type { IndexKey } from './stored-index.js';
import type { CompiledModules } from './wasm-modules.js';

/** Walk the workspace, index it and write the stored index to `path`. */
export interface BuildRequest {
  readonly type: 'build';
  readonly root: string;
  readonly skipped: readonly string[];
  readonly fileLimit: number;
  readonly path: string;
  /** Stored in the file; a load compares it. */
  readonly key: IndexKey;
  readonly settledMs: number;
  /** Threads to split the files over at most (this one and helpers). */
  readonly threads: number;
  /** Files a part has at least, or the build stays on fewer threads. */
  readonly minFilesPerPart: number;
  /** Keys a thread sorts at a time (`DEFAULT_CHUNK_KEYS` when absent; tests make chunks small). */
  readonly chunkKeys?: number;
}

/** Read and check the stored index at `path`. */
export interface LoadRequest {
  readonly type: 'load';
  readonly path: string;
  readonly key: IndexKey;
}

/** Compare a stored index's files and folders with the disk. */
export interface SweepRequest {
  readonly type: 'sweep';
  readonly root: string;
  readonly files: readonly string[];
  /** ino, size, mtimeMs, ctimeMs of each file. */
  readonly fileStats: Float64Array;
  readonly fileFlags: Uint8Array;
  readonly folders: readonly string[];
  /** ino, mtimeMs, ctimeMs of each folder. */
  readonly folderStats: Float64Array;
}

/** Anything the host asks the index thread. */
export type IndexRequest = BuildRequest | LoadRequest | SweepRequest;

/** Figures of a finished build. */
export interface BuildStats {
  readonly files: number;
  readonly folders: number;
  readonly trigrams: number;
  /** Keys left out as common (held by so many files that they narrow no search). */
  readonly commonKeys: number;
  readonly postings: number;
  readonly textBytes: number;
  readonly bytesOnDisk: number;
  readonly parts: number;
  readonly buildMs: number;
  readonly phasesMs: {
    readonly walk: number;
    readonly index: number;
    readonly join: number;
    /** Each part's own time, the first on the index thread. */
    readonly parts: readonly number[];
    readonly write: number;
  };
}

/** The answer to each kind of request, when it succeeded. */
export interface IndexAnswers {
  readonly build: { readonly stats: BuildStats };
  readonly load: StoredIndexRead;
  readonly sweep: { readonly changed: string[] };
}

/** What the host sends: a request and its number. */
export type NumberedRequest = IndexRequest & { readonly id: number };

/** What the index thread answers to request `id`. */
export type IndexReply =
  | ({ readonly id: number; readonly ok: true } & IndexAnswers[IndexRequest['type']])
  | { readonly id: number; readonly ok: false; readonly reason: string };

/** A helper thread's first request: index these files (or its end of them, with `shared`). */
export interface PartRequest extends PartSettings {
  readonly root: string;
  /** The files' relative paths, from `joinedPaths`. */
  readonly paths: string;
  readonly shared?: SharedRange;
}

/** A helper thread's answer to its part. */
export type PartReply =
  { readonly ok: true; readonly part: IndexedPart } | { readonly ok: false; readonly reason: string };

/** A helper thread's second request: join every part's chunks (in walk order), the keys in `range`. */
export interface JoinRequest {
  readonly chunks: readonly PostingChunk[];
  readonly range: HighByteRange;
}

/** A helper thread's answer to its join (laid out in `SharedArrayBuffer`s the index thread reads). */
export type JoinReply =
  { readonly ok: true; readonly joined: MergedPostings } | { readonly ok: false; readonly reason: string };

/** `workerData` of the index thread ('index') and of its helper threads ('part'). */
export interface IndexThreadData {
  readonly role: 'index' | 'part';
  /** A helper's WebAssembly modules, compiled by the index thread. */
  readonly modules?: CompiledModules;
}
