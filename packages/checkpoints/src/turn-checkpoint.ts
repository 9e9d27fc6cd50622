import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import type {
  FileChangeRecorder,
  FilePostimage,
  BatchRecording,
  FilePreimage,
  RecordedPostimage,
  RecordedPreimage,
} from '@clawsmith/tool-protocol';
import { getBlob } from './blob-store.js';
import { beforeState } from './change-states.js';
import { CheckpointError } from './checkpoint-errors.js';
import type { CheckpointTables, FileChangeRow } from './checkpoint-schema.js';
import {
  assertWorkspacePath,
  inspectPathWithContent,
  readFileUpTo,
  sameMode,
  sameState,
  sha256Hex,
  symlinkDigest,
} from './file-state.js';
import { bodyLineStats, isTextBody } from './body-line-stats.js';
import { buildManifest, type TurnManifest } from './turn-manifest.js';
import type { TurnWrites } from './turn-writes.js';

/**
 * What a caller hands over at the start of a turn; kept with the restore point. Only the ids and
 * the workspace are required: the session bookkeeping (`messageCount`, `eventSequence`,
 * `todoSnapshot`) is for a caller that restores a conversation with the files (core); a caller
 * that only undoes files leaves it out (0, 0 and null are stored).
 */
export interface BeginTurnInput {
  readonly sessionId: string;
  readonly turnId: string;
  /** Absolute path of the workspace the turn's tools write in. */
  readonly workspaceRoot: string;
  /** Number of session messages before the turn; default 0. */
  readonly messageCount?: number;
  /** Sequence number of the last session event before the turn; default 0. */
  readonly eventSequence?: number;
  /** The todo list at the start of the turn; opaque JSON to this package; default null. */
  readonly todoSnapshot?: unknown;
}

/** The checkpoint of a running turn: hand `recorder` to the tools, then `complete()` at turn end. */
export interface TurnCheckpoint {
  /** Opaque id of the restore point (`sessionId/turnId`). */
  readonly restorePointId: string;
  readonly sessionId: string;
  readonly turnId: string;
  /** The tool-protocol port; keeps the first pre-image and the latest post-image of each path. */
  readonly recorder: FileChangeRecorder;
  /**
   * Ends the turn: stores the written bodies (those the tools handed over, else those the files
   * still hold), computes the manifest (paths and statistics) and marks the point complete.
   * Idempotent.
   */
  complete(): Promise<TurnManifest>;
}

const SHA256_PATTERN = /^[0-9a-f]{64}$/;
/** Pre-image bytes a turn keeps by default (the session quota): beyond, changes are not undoable. */
export const DEFAULT_PREIMAGE_BYTES_PER_TURN = 100 * 1024 * 1024;
/** A written file's body is kept for diffs only up to this size, and up to this much per turn. */
const AFTER_BODY_MAX_BYTES = 1024 * 1024;
const AFTER_BODIES_PER_TURN_BYTES = 32 * 1024 * 1024;

/** Bodies kept in memory between recording and `complete()` so it need not read them back. */
const BODY_CACHE_BYTES = 32 * 1024 * 1024;

/** Recorder and completion of one turn, bound to the store's database. */
export class RecordingTurn implements TurnCheckpoint {
  readonly restorePointId: string;
  readonly recorder: FileChangeRecorder;
  /** This turn's change rows as written, so complete() need not read them back. */
  private readonly rows = new Map<string, FileChangeRow>();
  private readonly bodies = new Map<string, Buffer>();
  private cachedBytes = 0;
  /** The bytes each path's latest result handed over; checked against its hash at completion. */
  private readonly written = new Map<string, Buffer>();
  private writtenBytes = 0;
  private keptBytes = 0;
  private readonly notes: string[] = [];
  private completed: Promise<TurnManifest> | undefined;

  constructor(
    private readonly db: Kysely<CheckpointTables>,
    private readonly writes: TurnWrites,
    private readonly now: () => number,
    readonly sessionId: string,
    readonly turnId: string,
    private readonly workspaceRoot: string,
    /** Pre-image bytes this turn keeps at most; beyond, changes are recorded as not undoable. */
    private readonly preimageBytesCap: number = DEFAULT_PREIMAGE_BYTES_PER_TURN,
  ) {
    this.restorePointId = `${sessionId}/${turnId}`;
    this.recorder = {
      beforeChange: (path, preimage) => this.beforeChange(path, preimage),
      afterChange: (path, postimage) => this.afterChange(path, postimage),
      beforeChanges: (changes) => this.beforeChanges(changes),
      afterChanges: (changes) => this.afterChanges(changes),
      note: (text) => this.note(text),
    };
  }

  private assertOpen(path: string): void {
    assertWorkspacePath(path);
    if (this.completed !== undefined) {
      throw new CheckpointError(
        'checkpoint_turn_completed',
        `Turn ${this.turnId} is complete; record ${path} in the checkpoint of the turn that changes it.`,
      );
    }
  }

  private remember(sha256: string, content: Buffer): void {
    if (this.bodies.has(sha256) || this.cachedBytes + content.byteLength > BODY_CACHE_BYTES) return;
    this.bodies.set(sha256, content);
    this.cachedBytes += content.byteLength;
  }

  /** The row and, for a file or link, the body that record `preimage` as the first state of `path`. */
  private preimageRow(path: string, preimage: FilePreimage, ordinal: number): { row: FileChangeRow; body?: Buffer } {
    const row: FileChangeRow = {
      session_id: this.sessionId,
      turn_id: this.turnId,
      path,
      ordinal,
      before_state: preimage.state === 'file-not-kept' ? 'unkept' : preimage.state,
      before_sha256: null,
      before_mode: null,
      before_bytes: null,
      after_state: null,
      after_sha256: null,
      after_mode: null,
      after_bytes: null,
      after_stored: 0,
      lines_added: null,
      lines_removed: null,
      binary: 0,
    };
    if (preimage.state === 'absent') return { row };
    if (preimage.state === 'directory') return { row: { ...row, before_mode: preimage.mode & 0o7777 } };
    const unkept = (sha256: string, mode: number, bytes: number) => ({
      row: {
        ...row,
        before_state: 'unkept' as const,
        before_sha256: sha256,
        before_mode: mode & 0o7777,
        before_bytes: bytes,
      },
    });
    if (preimage.state === 'file-not-kept') return unkept(preimage.sha256, preimage.mode, preimage.bytes);
    if (preimage.state === 'file' && this.keptBytes + preimage.content.byteLength > this.preimageBytesCap)
      return unkept(sha256Hex(preimage.content), preimage.mode, preimage.content.byteLength);
    const body =
      preimage.state === 'file'
        ? Buffer.from(preimage.content.buffer, preimage.content.byteOffset, preimage.content.byteLength)
        : Buffer.from(preimage.target);
    return {
      row: {
        ...row,
        before_sha256: sha256Hex(body),
        before_mode: preimage.state === 'file' ? preimage.mode & 0o7777 : null,
        before_bytes: body.byteLength,
      },
      body,
    };
  }

  private async beforeChange(path: string, preimage: FilePreimage): Promise<void> {
    await this.beforeChanges([{ path, preimage }]);
  }

  private async note(text: string): Promise<void> {
    this.assertOpen('note');
    this.notes.push(text);
    await sql`update checkpoint_restore_point set notes = ${JSON.stringify(this.notes)}
      where session_id = ${this.sessionId} and turn_id = ${this.turnId}`.execute(this.db);
  }

  private async beforeChanges(changes: readonly RecordedPreimage[]): Promise<BatchRecording> {
    const fresh: { row: FileChangeRow; body?: Buffer }[] = [];
    const seen = new Set<string>();
    for (const { path, preimage } of changes) {
      this.assertOpen(path);
      if (this.rows.has(path) || seen.has(path)) continue;
      seen.add(path);
      const prepared = this.preimageRow(path, preimage, this.rows.size + fresh.length);
      if (prepared.row.before_state === 'file') this.keptBytes += Number(prepared.row.before_bytes ?? 0);
      fresh.push(prepared);
    }
    const notKept = fresh.filter(({ row }) => row.before_state === 'unkept').map(({ row }) => row.path);
    if (fresh.length === 0) return { notKept };
    const blobs = fresh.flatMap(({ row, body }) =>
      body === undefined ? [] : [[row.before_sha256 as string, body] as const],
    );
    const rows = fresh.map(({ row }) => row);
    await this.writes.record(blobs, rows, [], this.now());
    for (const { row, body } of fresh) {
      if (body !== undefined && row.before_state === 'file')
        this.remember(row.before_sha256 as string, Buffer.from(body));
      this.rows.set(row.path, row);
    }
    return { notKept };
  }

  /** The row of `path` once `postimage` is what the change left; throws when no pre-image was recorded. */
  private postimageRow(path: string, postimage: FilePostimage): FileChangeRow {
    this.assertOpen(path);
    const row = this.rows.get(path);
    if (row === undefined) {
      throw new CheckpointError(
        'checkpoint_missing_preimage',
        `No pre-image was recorded for ${path} in turn ${this.turnId}; call beforeChange before writing so the change can be undone.`,
      );
    }
    const base = { ...row, after_bytes: null, after_stored: 0, after_mode: null, after_sha256: null };
    switch (postimage.state) {
      case 'absent':
        return { ...base, after_state: 'absent' };
      case 'directory':
        return { ...base, after_state: 'directory', after_mode: postimage.mode & 0o7777 };
      case 'symlink':
        return { ...base, after_state: 'symlink', after_sha256: symlinkDigest(postimage.target) };
      case 'file':
        if (!SHA256_PATTERN.test(postimage.sha256)) {
          throw new CheckpointError(
            'checkpoint_invalid_path',
            `The post-write hash of ${path} must be 64 lowercase hex digits (SHA-256).`,
          );
        }
        // Only the hash now; complete() stores the body in one batch if the file still holds it.
        return {
          ...base,
          after_state: 'file',
          after_sha256: postimage.sha256,
          after_mode: postimage.mode === undefined ? null : postimage.mode & 0o7777,
        };
    }
  }

  private afterChange(path: string, postimage: FilePostimage): Promise<void> {
    return this.afterChanges([{ path, postimage }]);
  }

  // A result is written before the call resolves: kept only in memory, a crash and then an edit
  // by the person before recovery would count the edit as the turn's result, and undo would put
  // the pre-image back over it instead of reporting a conflict.
  private async afterChanges(changes: readonly RecordedPostimage[]): Promise<void> {
    const rows = new Map<string, FileChangeRow>();
    for (const { path, postimage } of changes) rows.set(path, this.postimageRow(path, postimage));
    if (rows.size === 0) return;
    await this.writes.record([], [], [...rows.values()], this.now());
    for (const [path, row] of rows) this.rows.set(path, row);
    for (const { path, postimage } of changes) this.keepWritten(path, postimage);
  }

  /** Holds the bytes `postimage` handed over (a copy: the caller may reuse its buffer) in place of the path's earlier ones. */
  private keepWritten(path: string, postimage: FilePostimage): void {
    this.writtenBytes -= this.written.get(path)?.byteLength ?? 0;
    this.written.delete(path);
    if (postimage.state !== 'file' || postimage.content === undefined) return;
    const bytes = postimage.content.byteLength;
    if (bytes > AFTER_BODY_MAX_BYTES || this.writtenBytes + bytes > AFTER_BODIES_PER_TURN_BYTES) return;
    this.written.set(path, Buffer.from(postimage.content));
    this.writtenBytes += bytes;
  }

  complete(): Promise<TurnManifest> {
    this.completed ??= completeTurn(this.db, this.writes, this.now, this.sessionId, this.turnId, this.workspaceRoot, {
      body: (sha256) => this.bodies.get(sha256),
      written: (path) => this.written.get(path),
      rows: [...this.rows.values()],
      notes: this.notes,
    });
    return this.completed;
  }
}

/** What a live turn already holds in memory, so completion need not read it back. */
interface KnownTurn {
  /** A body by its SHA-256 (the cache holds only bytes whose hash is their key). */
  readonly body?: (sha256: string) => Buffer | undefined;
  /** The bytes the tool said it wrote to a path last, not yet checked against the result's hash. */
  readonly written?: (path: string) => Buffer | undefined;
  readonly rows?: readonly FileChangeRow[];
  readonly notes?: readonly string[];
}

/**
 * The written bytes to keep for `row` (a file result), at most `room` of them: those handed over
 * when they hash to the result, else the file's when it still holds them; only the size when the
 * file is larger than `room`; nothing when it changed since.
 */
function writtenBody(
  workspaceRoot: string,
  row: FileChangeRow,
  handed: Buffer | undefined,
  room: number,
): { size: number; content?: Buffer } | undefined {
  if (handed !== undefined && handed.byteLength <= room && sha256Hex(handed) === row.after_sha256)
    return { size: handed.byteLength, content: handed };
  const file = readFileUpTo(join(workspaceRoot, ...row.path.split('/')), room);
  return file?.content !== undefined && sha256Hex(file.content) !== row.after_sha256 ? undefined : file;
}

/**
 * Completes a turn: settles paths whose tool never reported a result (from what the disk holds),
 * computes line statistics and marks the restore point complete. Idempotent.
 */
export async function completeTurn(
  db: Kysely<CheckpointTables>,
  writes: TurnWrites,
  now: () => number,
  sessionId: string,
  turnId: string,
  workspaceRoot: string,
  known: KnownTurn = {},
): Promise<TurnManifest> {
  const notes =
    known.notes ??
    (JSON.parse(
      (
        await db
          .selectFrom('checkpoint_restore_point')
          .select('notes')
          .where('session_id', '=', sessionId)
          .where('turn_id', '=', turnId)
          .executeTakeFirst()
      )?.notes ?? '[]',
    ) as string[]);
  let storedAfterBytes = 0;
  const rows =
    known.rows ??
    (await db
      .selectFrom('checkpoint_file_change')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('turn_id', '=', turnId)
      .execute());
  const body = async (sha256: string | null) =>
    sha256 === null ? undefined : (known.body?.(sha256) ?? (await getBlob(db, sha256)));
  const settled: FileChangeRow[] = [];
  const dropped: string[] = [];
  const newBlobs = new Map<string, Buffer>();
  for (const original of rows) {
    let row = { ...original };
    if (row.after_state === null) {
      // The tool announced a change and never reported its result: trust only what is on disk.
      const { found, file } = inspectPathWithContent(workspaceRoot, row.path);
      const before = beforeState(row);
      if (sameState(before, found) && sameMode(before, found)) {
        dropped.push(row.path);
        continue;
      }
      if (found.state === 'file' && file !== undefined) {
        newBlobs.set(found.sha256, file.content);
        row = {
          ...row,
          after_state: 'file',
          after_sha256: found.sha256,
          after_mode: file.mode,
          after_bytes: file.content.byteLength,
          after_stored: 1,
        };
      } else if (found.state === 'symlink' && 'target' in found && found.onTheWay !== true) {
        row = { ...row, after_state: 'symlink', after_sha256: symlinkDigest(found.target) };
      } else if (found.state === 'directory') {
        row = { ...row, after_state: 'directory', after_mode: found.mode ?? null };
      } else {
        row = { ...row, after_state: found.state === 'absent' ? 'absent' : 'unknown' };
      }
    } else if (row.after_state === 'file' && Number(row.after_stored) === 0) {
      // Keep the written bytes, so diffs never depend on what the workspace holds later; if
      // neither the bytes handed over nor the file match the result, the turn keeps only the hash.
      // Bodies are kept for diffs only while small: a command's 200 MB output or 20,000 installed
      // files keep their hashes (undo needs no more to delete them), not copies.
      const room = Math.min(AFTER_BODY_MAX_BYTES, AFTER_BODIES_PER_TURN_BYTES - storedAfterBytes);
      const file = writtenBody(workspaceRoot, row, known.written?.(row.path), room);
      if (file?.content !== undefined) {
        newBlobs.set(row.after_sha256 as string, file.content);
        storedAfterBytes += file.content.byteLength;
        row = { ...row, after_bytes: file.content.byteLength, after_stored: 1 };
      } else if (file !== undefined) row = { ...row, after_bytes: file.size };
    }
    // Line statistics compare file bodies only: a link or a folder on either side has none.
    const textual = (state: string | null) => state === 'file' || state === 'absent';
    const comparable = textual(row.before_state) && textual(row.after_state);
    const before = !comparable
      ? undefined
      : row.before_state === 'file'
        ? await body(row.before_sha256)
        : Buffer.alloc(0);
    const after = !comparable
      ? undefined
      : row.after_state === 'absent'
        ? Buffer.alloc(0)
        : Number(row.after_stored) === 1
          ? ((row.after_sha256 === null ? undefined : newBlobs.get(row.after_sha256)) ?? (await body(row.after_sha256)))
          : undefined;
    const compared = before !== undefined && after !== undefined ? bodyLineStats(before, after) : undefined;
    const stats = compared !== undefined && !compared.binary ? compared : undefined;
    const binary =
      compared !== undefined
        ? compared.binary
        : (before !== undefined && !isTextBody(before)) || (after !== undefined && !isTextBody(after));
    settled.push({
      ...row,
      binary: binary ? 1 : 0,
      lines_added: stats?.linesAdded ?? null,
      lines_removed: stats?.linesRemoved ?? null,
    });
  }
  // Bytes this point keeps: bodies not kept (an unkept pre-image, an unstored result) cost nothing.
  const bytes = settled.reduce(
    (total, row) =>
      total +
      (row.before_state === 'unkept' ? 0 : Number(row.before_bytes ?? 0)) +
      (Number(row.after_stored) === 1 ? Number(row.after_bytes ?? 0) : 0),
    0,
  );
  await writes.complete({ sessionId, turnId, blobs: [...newBlobs], dropped, settled, bytes, completedAt: now() });
  return buildManifest(sessionId, turnId, settled, notes);
}
