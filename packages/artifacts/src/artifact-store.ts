import { createHash } from 'node:crypto';
import { mkdirSync, openSync, writeFileSync } from 'node:fs';
import type { SharedTables } from '@clawsmith/platform';
import type { Kysely } from 'kysely';
import type {
  AppendableArtifact,
  ArtifactReference,
  ArtifactWriteOptions,
  ArtifactWriter,
} from '@clawsmith/tool-protocol';
import { ArtifactNotFoundError, InvalidArtifactOptionsError } from './artifact-errors.js';
import { isArtifactId, newArtifactId } from './artifact-id.js';
import {
  DEFAULT_LINE_INDEX_INTERVAL,
  DEFAULT_READ_LIMITS,
  DEFAULT_ARTIFACT_RETENTION,
  type ArtifactReadLimits,
  type ArtifactRetention,
} from './artifact-limits.js';
import { ArtifactRecords, type ArtifactDatabase, type ArtifactRecord } from './artifact-records.js';
import { OpenAppendable } from './appendable-artifact.js';
import { contentPath, removeContentFile, withContentFile } from './content-files.js';
import { externalizeContent, type ExternalizeOptions, type ExternalizedContent } from './externalize.js';
import { searchContent, type SearchOptions, type SearchResult } from './keyword-search.js';
import { LineIndexBuilder } from './line-index.js';
import {
  readByteRange,
  readLineRange,
  type ByteRange,
  type ByteRangeResult,
  type LineRange,
  type LineRangeResult,
} from './range-reads.js';
import { pruneArtifacts, type ArtifactPruneResult } from './retention.js';
import { sealAbandonedArtifact } from './seal-abandoned.js';

const DEFAULT_MEDIA_TYPE = 'text/plain; charset=utf-8';
const MEDIA_TYPE =
  /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(\s*;\s*[a-z0-9!#$&^_.+-]+=("[^"\\\r\n]*"|[a-z0-9!#$&^_.+-]+))*$/i;

/** Options of {@link createArtifactStore}. */
export interface ArtifactStoreOptions<Tables = SharedTables> {
  /**
   * The host's database, whatever its table map (a clawsmith home's is `DatabaseHandle` of
   * `@clawsmith/platform`), already migrated with `migrateArtifacts`; the store never closes it.
   */
  readonly db: Kysely<Tables>;
  /** Folder for artifact bodies (created if missing), for example `<clawsmith home>/artifacts`. */
  readonly directory: string;
  /** Clock in milliseconds since the epoch; default `Date.now`. */
  readonly now?: () => number;
  /** Bounds of every read; defaults {@link DEFAULT_READ_LIMITS}. */
  readonly limits?: Partial<ArtifactReadLimits>;
  /** Retention used by `prune()` when it is given none; defaults {@link DEFAULT_ARTIFACT_RETENTION}. */
  readonly retention?: Partial<ArtifactRetention>;
  /** Bytes between line index marks; default 64 KiB. */
  readonly lineIndexInterval?: number;
}

/** Who an artifact belongs to. */
export interface ArtifactOwner {
  readonly sessionId: string;
  readonly toolCallId: string;
}

/** An artifact's metadata as the store records it. */
export interface ArtifactInfo extends ArtifactReference {
  readonly sessionId: string;
  readonly toolCallId: string;
  /** `open` while an appendable writer may still add to it. */
  readonly state: 'open' | 'complete';
  readonly createdAt: number;
}

/** An {@link AppendableArtifact} that also tells its id. */
export interface OpenArtifact extends AppendableArtifact {
  readonly id: string;
}

/** The session-scoped artifact store. Every read takes the calling session's id. */
export interface ArtifactStore {
  /** The read bounds in force. */
  readonly limits: ArtifactReadLimits;
  /** The `ArtifactWriter` port for one tool call of one session. */
  writerFor(owner: ArtifactOwner): ArtifactWriter;
  /** Stores `content` whole. */
  write(content: string | Uint8Array, owner: ArtifactOwner & ArtifactWriteOptions): Promise<ArtifactReference>;
  /** Opens an artifact that grows as output arrives; readers can follow it by offset. */
  openAppendable(owner: ArtifactOwner & ArtifactWriteOptions): Promise<OpenArtifact>;
  /** Keeps small content inline; stores larger content and returns a head-and-tail preview. */
  externalize(content: string, options: ExternalizeOptions): Promise<ExternalizedContent>;
  /** Metadata of one artifact of `sessionId`; `artifact_not_found` otherwise. */
  info(sessionId: string, id: string): Promise<ArtifactInfo>;
  /** Every artifact of `sessionId`, oldest first. */
  list(sessionId: string): Promise<ArtifactInfo[]>;
  /** A byte range, bounded by `limits.maxBytes`. */
  readBytes(sessionId: string, id: string, range: ByteRange): Promise<ByteRangeResult>;
  /** A line range, bounded by `limits.maxLines` and `limits.maxBytes`. */
  readLines(sessionId: string, id: string, range: LineRange): Promise<LineRangeResult>;
  /** A keyword or regular-expression search, bounded in output, bytes scanned and time. */
  search(sessionId: string, id: string, options: SearchOptions): Promise<SearchResult>;
  /**
   * Lets `toSessionId` read every artifact `fromSessionId` can read (a fork reads its parent's:
   * the tool results and compaction stubs it inherits name them). Returns how many.
   */
  shareSession(fromSessionId: string, toSessionId: string): Promise<number>;
  /**
   * Deletes a session's artifacts; returns how many bodies were removed. An artifact shared with
   * another session (a fork) passes to it instead and stays readable there.
   */
  deleteSession(sessionId: string): Promise<number>;
  /**
   * Applies age and quota retention; never removes an artifact that is still open. With
   * `dryRun` it removes nothing and reports what a prune would remove and keep now.
   */
  prune(retention?: Partial<ArtifactRetention>, options?: { readonly dryRun?: boolean }): Promise<ArtifactPruneResult>;
  /** Bytes of the session's artifacts. */
  sessionBytes(sessionId: string): Promise<number>;
  /**
   * Seals the artifacts a dead process left open for these tool calls of `sessionId` (crash
   * recovery): each becomes complete at the length last committed, with its hash; bytes written
   * after that commit are cut. Artifacts a writer of this store still holds are left alone.
   * Returns how many were sealed.
   */
  sealAbandoned(sessionId: string, toolCallIds: readonly string[]): Promise<number>;
}

function toInfo(record: ArtifactRecord): ArtifactInfo {
  return {
    id: record.id,
    mediaType: record.mediaType,
    byteLength: record.byteLength,
    lineCount: record.lineCount,
    ...(record.sha256 ? { sha256: record.sha256 } : {}),
    sessionId: record.sessionId,
    toolCallId: record.toolCallId,
    state: record.state,
    createdAt: record.createdAt,
  };
}

function checkOwner(owner: ArtifactOwner & ArtifactWriteOptions): string {
  for (const key of ['sessionId', 'toolCallId'] as const) {
    const value = owner[key];
    if (typeof value !== 'string' || value.length === 0 || value.length > 255) {
      throw new InvalidArtifactOptionsError(`${key} must be a non-empty string of at most 255 characters.`);
    }
  }
  const mediaType = owner.mediaType ?? DEFAULT_MEDIA_TYPE;
  if (typeof mediaType !== 'string' || mediaType.length > 255 || !MEDIA_TYPE.test(mediaType)) {
    throw new InvalidArtifactOptionsError(
      `"${String(mediaType).slice(0, 80)}" is not a media type; use a type/subtype such as ${DEFAULT_MEDIA_TYPE}.`,
    );
  }
  return mediaType;
}

/** Creates the store over a database it does not own and a folder of artifact bodies. */
export function createArtifactStore<Tables>(options: ArtifactStoreOptions<Tables>): ArtifactStore {
  // The host's table map says nothing of ours; migrateArtifacts, run on it first, created them.
  const records = new ArtifactRecords(options.db as unknown as Kysely<ArtifactDatabase>);
  const directory = options.directory;
  const now = options.now ?? Date.now;
  const limits: ArtifactReadLimits = Object.freeze({ ...DEFAULT_READ_LIMITS, ...options.limits });
  const defaultRetention: ArtifactRetention = { ...DEFAULT_ARTIFACT_RETENTION, ...options.retention };
  const interval = options.lineIndexInterval ?? DEFAULT_LINE_INDEX_INTERVAL;
  const live = new Set<string>();
  mkdirSync(directory, { recursive: true, mode: 0o700 });

  async function find(sessionId: string, id: string): Promise<ArtifactRecord> {
    if (typeof sessionId !== 'string' || !isArtifactId(id)) throw new ArtifactNotFoundError();
    const record = await records.find(sessionId, id);
    if (!record) throw new ArtifactNotFoundError();
    return record;
  }

  function withBody<T>(record: ArtifactRecord, work: (descriptor: number) => T): T {
    const result = withContentFile(contentPath(directory, record.id), work);
    if (result === undefined) throw new ArtifactNotFoundError();
    return result;
  }

  async function write(
    content: string | Uint8Array,
    owner: ArtifactOwner & ArtifactWriteOptions,
  ): Promise<ArtifactReference> {
    const mediaType = checkOwner(owner);
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const id = newArtifactId();
    const index = new LineIndexBuilder(interval);
    index.feed(bytes);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const path = contentPath(directory, id);
    writeFileSync(path, bytes, { flag: 'wx', mode: 0o600 });
    const createdAt = now();
    const record: ArtifactRecord = {
      id,
      sessionId: owner.sessionId,
      toolCallId: owner.toolCallId,
      mediaType,
      state: 'complete',
      byteLength: bytes.byteLength,
      lineCount: index.lineCount,
      sha256,
      createdAt,
      updatedAt: createdAt,
    };
    try {
      await records.insert(record, index.takeMarks());
    } catch (error) {
      removeContentFile(path);
      throw error;
    }
    return { id, mediaType, byteLength: record.byteLength, lineCount: record.lineCount, sha256 };
  }

  async function openAppendable(owner: ArtifactOwner & ArtifactWriteOptions): Promise<OpenArtifact> {
    const mediaType = checkOwner(owner);
    const id = newArtifactId();
    const path = contentPath(directory, id);
    const descriptor = openSync(path, 'wx', 0o600);
    const createdAt = now();
    live.add(id);
    try {
      await records.insert(
        {
          id,
          sessionId: owner.sessionId,
          toolCallId: owner.toolCallId,
          mediaType,
          state: 'open',
          byteLength: 0,
          lineCount: 0,
          sha256: null,
          createdAt,
          updatedAt: createdAt,
        },
        [],
      );
    } catch (error) {
      live.delete(id);
      removeContentFile(path);
      throw error;
    }
    return new OpenAppendable({
      id,
      mediaType,
      descriptor,
      records,
      lineIndexInterval: interval,
      now,
      onEnd: () => live.delete(id),
    });
  }

  const store: ArtifactStore = {
    limits,
    writerFor(owner) {
      checkOwner(owner);
      return {
        write: (content, writeOptions) => write(content, { ...owner, ...writeOptions }),
        openAppendable: (writeOptions) => openAppendable({ ...owner, ...writeOptions }),
      };
    },
    write,
    openAppendable,
    externalize: (content, externalizeOptions) => externalizeContent(content, externalizeOptions, write),
    info: async (sessionId, id) => toInfo(await find(sessionId, id)),
    list: async (sessionId) => (await records.listSession(sessionId)).map(toInfo),
    async readBytes(sessionId, id, range) {
      const record = await find(sessionId, id);
      return withBody(record, (descriptor) => readByteRange(descriptor, record.byteLength, range, limits));
    },
    async readLines(sessionId, id, range) {
      const record = await find(sessionId, id);
      const mark = await records.markAtOrBefore(id, Number.isSafeInteger(range.startLine) ? range.startLine : 1);
      return withBody(record, (descriptor) => readLineRange(descriptor, record, range, mark, limits));
    },
    async search(sessionId, id, searchOptions) {
      const record = await find(sessionId, id);
      const fromLine = searchOptions.fromLine ?? 1;
      const mark = await records.markAtOrBefore(id, Number.isSafeInteger(fromLine) ? fromLine : 1);
      try {
        return await searchContent(contentPath(directory, id), record, mark, searchOptions, limits);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new ArtifactNotFoundError();
        throw error;
      }
    },
    shareSession: (fromSessionId, toSessionId) => records.share(fromSessionId, toSessionId),
    async deleteSession(sessionId) {
      const doomed = await records.releaseSession(sessionId);
      for (const record of doomed) removeContentFile(contentPath(directory, record.id));
      return doomed.length;
    },
    prune: (retention, pruneOptions) =>
      pruneArtifacts({
        records,
        directory,
        now,
        live,
        retention: { ...defaultRetention, ...retention },
        dryRun: pruneOptions?.dryRun === true,
      }),
    async sessionBytes(sessionId) {
      return (await records.listSession(sessionId)).reduce((sum, record) => sum + record.byteLength, 0);
    },
    async sealAbandoned(sessionId, toolCallIds) {
      const calls = new Set(toolCallIds);
      let sealed = 0;
      for (const record of await records.listSession(sessionId)) {
        if (record.state !== 'open' || live.has(record.id) || !calls.has(record.toolCallId)) continue;
        if (await sealAbandonedArtifact(records, contentPath(directory, record.id), record, now())) sealed += 1;
      }
      return sealed;
    },
  };
  return Object.freeze(store);
}
