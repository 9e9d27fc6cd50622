import { createDirectWorkspaceWall, type WorkspaceWall } from '@clawsmith/tool-protocol';
import type { SharedTables } from '@clawsmith/platform';
import type { Kysely } from 'kysely';
import { CheckpointConflictError, CheckpointError } from './checkpoint-errors.js';
import type { CheckpointTables, HostDatabase, RestorePointRow } from './checkpoint-schema.js';
import type { UndoConflict } from './file-state.js';
import { diffFile, type FileDiff } from './file-diff.js';
import { forkSession, type ForkOptions, type ForkResult } from './fork-session.js';
import {
  applyJournal,
  claimJournal,
  journalOwnerAlive,
  startJournal,
  type UndoOptions,
  type UndoResult,
} from './restore-journal.js';
import {
  DEFAULT_CHECKPOINT_RETENTION,
  deleteSessionCheckpoints,
  pruneCheckpoints,
  type DeleteSessionResult,
  type CheckpointPruneResult,
  type RetentionPolicy,
} from './retention.js';
import {
  completeTurn,
  DEFAULT_PREIMAGE_BYTES_PER_TURN,
  RecordingTurn,
  type BeginTurnInput,
  type TurnCheckpoint,
} from './turn-checkpoint.js';
import { buildManifest, type TurnManifest } from './turn-manifest.js';
import { sqliteHandleOf } from './checkpoint-database.js';
import type { SqliteHandle } from './sqlite-statements.js';
import { turnWrites } from './turn-writes.js';
import { loadUndoPoints, planUndo, requireRestorePoint } from './undo-plan.js';

/** Options of {@link createCheckpointStore}. */
export interface CheckpointStoreOptions<Tables = SharedTables> {
  /** A database the host opened (WAL, busy_timeout, synchronous=NORMAL) and migrated; the store never closes it. */
  readonly db: HostDatabase<Tables>;
  /** Clock in milliseconds; default `Date.now`. */
  readonly now?: () => number;
  /** Retention overrides; see {@link DEFAULT_CHECKPOINT_RETENTION}. */
  readonly retention?: Partial<RetentionPolicy>;
  /**
   * Pre-image bytes one turn keeps at most (default 100 MiB, the session quota). Beyond it,
   * changes are still recorded, as not undoable; the manifest and the recorder say which.
   */
  readonly preimageBytesPerTurn?: number;
  /**
   * Where undo writes files: give the kernel-enforced wall (`createWorkspaceWall` of
   * `@clawsmith/command-sandbox`). Default: written by this process, guarded only by path checks.
   */
  readonly wall?: WorkspaceWall;
  /**
   * The better-sqlite3 connection `db` runs on, when the host opened it (a database from
   * {@link openCheckpointDatabase} is known without it). The hot path (begin, record, complete)
   * and an undo's journal (its start and its end) then run prepared statements on it directly,
   * each write in one synchronous `BEGIN IMMEDIATE … COMMIT` that no other query can interleave
   * with; while the host holds a transaction open on the connection, they go through `db` instead.
   * Default: through `db`.
   */
  readonly sqlite?: SqliteHandle;
}

/** A restore point as listed: the state of a session before one turn. */
export interface RestorePointSummary {
  /** Opaque id (`sessionId/turnId`). */
  readonly restorePointId: string;
  readonly sessionId: string;
  readonly turnId: string;
  /** Position of the turn in its session, from 1. */
  readonly sequence: number;
  readonly workspaceRoot: string;
  readonly messageCount: number;
  readonly eventSequence: number;
  readonly createdAt: number;
  /** Null while the turn runs (or when its process died before completing it). */
  readonly completedAt: number | null;
  readonly undone: boolean;
  readonly undoneAt: number | null;
  /** Bytes of pre- and post-images this point refers to (counted per reference). */
  readonly bytes: number;
  /** The session it was copied from by a fork, if any. */
  readonly forkedFromSessionId: string | null;
}

/** A restore point with its todo snapshot and manifest. */
export interface RestorePoint extends RestorePointSummary {
  /** The todo list at the turn's start, exactly as given to `beginTurn`. */
  readonly todoSnapshot: unknown;
  readonly manifest: TurnManifest;
}

/** Per-turn restore points of one database; see the package README for the contract. */
export interface CheckpointStore {
  beginTurn(input: BeginTurnInput): Promise<TurnCheckpoint>;
  /** Completes a turn whose process died before `complete()` (core's crash recovery). */
  completeTurn(sessionId: string, turnId: string): Promise<TurnManifest>;
  listRestorePoints(sessionId: string): Promise<RestorePointSummary[]>;
  getRestorePoint(sessionId: string, turnId: string): Promise<RestorePoint>;
  /** The conflicts that would stop `undoFiles` now; empty when it can proceed. */
  precheckUndo(sessionId: string, turnId: string): Promise<UndoConflict[]>;
  /** Reverts `turnId` and every later turn not undone yet, or throws before changing anything. */
  undoFiles(sessionId: string, turnId: string, options?: UndoOptions): Promise<UndoResult>;
  /** Finishes undo batches whose process died (all sessions, or one). */
  resumeInterruptedUndo(sessionId?: string, options?: UndoOptions): Promise<UndoResult[]>;
  diff(sessionId: string, turnId: string, path: string): Promise<FileDiff>;
  forkSession(parentSessionId: string, childSessionId: string, options?: ForkOptions): Promise<ForkResult>;
  /**
   * Applies the retention policy (this store's, overridden by `options`); with `dryRun` it
   * changes nothing and reports what a prune would remove and keep now.
   */
  prune(
    options?: Partial<RetentionPolicy> & { readonly now?: number; readonly dryRun?: boolean },
  ): Promise<CheckpointPruneResult>;
  /** Bytes of the session's restore points (pre- and post-images, counted per reference). */
  sessionBytes(sessionId: string): Promise<number>;
  /** Deletes the session's restore points, changes and journals, and the blobs nobody needs any more. */
  deleteSession(sessionId: string): Promise<DeleteSessionResult>;
}

function summary(row: RestorePointRow): RestorePointSummary {
  return {
    restorePointId: `${row.session_id}/${row.turn_id}`,
    sessionId: row.session_id,
    turnId: row.turn_id,
    sequence: Number(row.sequence),
    workspaceRoot: row.workspace_root,
    messageCount: Number(row.message_count),
    eventSequence: Number(row.event_sequence),
    createdAt: Number(row.created_at),
    completedAt: row.completed_at === null ? null : Number(row.completed_at),
    undone: row.undone_at !== null,
    undoneAt: row.undone_at === null ? null : Number(row.undone_at),
    bytes: Number(row.bytes),
    forkedFromSessionId: row.forked_from_session_id,
  };
}

function assertIdentifier(name: string, value: unknown): asserts value is string {
  if (typeof value !== 'string' || value.length === 0) throw new TypeError(`${name} must be a non-empty string`);
}

function assertCount(name: string, value: unknown): asserts value is number {
  if (!Number.isSafeInteger(value) || (value as number) < 0)
    throw new TypeError(`${name} must be a non-negative integer`);
}

/** Creates the checkpoint store over a database it does not own. */
export function createCheckpointStore<Tables>(options: CheckpointStoreOptions<Tables>): CheckpointStore {
  // The host's table map says nothing of ours; migrateCheckpoints, run on it first, created them.
  const db = options.db as unknown as Kysely<CheckpointTables>;
  const now = options.now ?? Date.now;
  const retention: RetentionPolicy = { ...DEFAULT_CHECKPOINT_RETENTION, ...options.retention };
  const wall = options.wall ?? createDirectWorkspaceWall();
  const sqlite = options.sqlite ?? sqliteHandleOf(options.db);
  const writes = turnWrites(db, sqlite);
  const journalDatabase = { db, sqlite };

  async function resume(
    sessionId: string | undefined,
    undoOptions: UndoOptions | undefined,
    failIfBusy: boolean,
  ): Promise<UndoResult[]> {
    let query = db
      .selectFrom('checkpoint_restore_journal')
      .selectAll()
      .where('state', '=', 'applying')
      .orderBy('created_at');
    if (sessionId !== undefined) query = query.where('session_id', '=', sessionId);
    const results: UndoResult[] = [];
    for (const journal of await query.execute()) {
      if (journalOwnerAlive(journal, now())) {
        if (!failIfBusy) continue;
        throw new CheckpointError(
          'checkpoint_undo_in_progress',
          `Another process is undoing files of session ${journal.session_id}; retry when it finishes.`,
          { retryable: true },
        );
      }
      if (await claimJournal(db, journal))
        results.push(await applyJournal(journalDatabase, wall, now, journal, true, undoOptions));
    }
    return results;
  }

  return {
    async beginTurn(input) {
      for (const name of ['sessionId', 'turnId', 'workspaceRoot'] as const) assertIdentifier(name, input[name]);
      const messageCount = input.messageCount ?? 0;
      const eventSequence = input.eventSequence ?? 0;
      assertCount('messageCount', messageCount);
      assertCount('eventSequence', eventSequence);
      const todoSnapshot = JSON.stringify(input.todoSnapshot ?? null);
      try {
        await writes.begin({ ...input, messageCount, eventSequence, todoSnapshot, createdAt: now() });
      } catch (error) {
        const existing = await db
          .selectFrom('checkpoint_restore_point')
          .select('turn_id')
          .where('session_id', '=', input.sessionId)
          .where('turn_id', '=', input.turnId)
          .executeTakeFirst();
        if (existing === undefined) throw error;
        throw new CheckpointError(
          'checkpoint_turn_exists',
          `Session ${input.sessionId} already has a restore point for turn ${input.turnId}; every turn needs a new id.`,
        );
      }
      return new RecordingTurn(
        db,
        writes,
        now,
        input.sessionId,
        input.turnId,
        input.workspaceRoot,
        options.preimageBytesPerTurn ?? DEFAULT_PREIMAGE_BYTES_PER_TURN,
      );
    },

    async completeTurn(sessionId, turnId) {
      const point = await requireRestorePoint(db, sessionId, turnId);
      return completeTurn(db, writes, now, sessionId, turnId, point.workspace_root);
    },

    async listRestorePoints(sessionId) {
      const rows = await db
        .selectFrom('checkpoint_restore_point')
        .selectAll()
        .where('session_id', '=', sessionId)
        .orderBy('sequence', 'asc')
        .execute();
      return rows.map(summary);
    },

    async getRestorePoint(sessionId, turnId) {
      const row = await requireRestorePoint(db, sessionId, turnId);
      const changes = await db
        .selectFrom('checkpoint_file_change')
        .selectAll()
        .where('session_id', '=', sessionId)
        .where('turn_id', '=', turnId)
        .execute();
      return {
        ...summary(row),
        todoSnapshot: JSON.parse(row.todo_snapshot) as unknown,
        manifest: buildManifest(sessionId, turnId, changes, JSON.parse(row.notes ?? '[]') as string[]),
      };
    },

    async precheckUndo(sessionId, turnId) {
      return [...(await planUndo(db, sessionId, turnId)).conflicts];
    },

    async undoFiles(sessionId, turnId, undoOptions) {
      let loaded = await loadUndoPoints(db, sessionId, turnId);
      if (loaded.applyingJournals > 0) {
        // A batch a killed process left behind is finished first; if it was this very undo, that is the retry.
        const finished = await resume(sessionId, undoOptions, true);
        const retried = finished.find((result) => result.turnId === turnId);
        if (retried !== undefined) return retried;
        loaded = await loadUndoPoints(db, sessionId, turnId);
      }
      const plan = await planUndo(db, sessionId, turnId, loaded);
      if (plan.conflicts.length > 0) {
        // Files that differ because another process is undoing (or has just undone) these very
        // turns are not a person's edits: say so rather than report a conflict.
        const again = await loadUndoPoints(db, sessionId, turnId);
        if (again.point?.undone_at != null) {
          throw new CheckpointError(
            'checkpoint_already_undone',
            `Turn ${turnId} of session ${sessionId} was undone by another process meanwhile; nothing more to do.`,
          );
        }
        if (again.applyingJournals > 0) {
          throw new CheckpointError(
            'checkpoint_undo_in_progress',
            'Another process is undoing this session right now; wait for it to finish, then look again.',
            { retryable: true },
          );
        }
        throw new CheckpointConflictError(plan.conflicts);
      }
      const started = await startJournal(journalDatabase, now(), plan);
      const applied = await applyJournal(journalDatabase, wall, now, started.journal, false, undoOptions, started);
      return { ...applied, notUndoable: plan.notUndoable };
    },

    resumeInterruptedUndo(sessionId, undoOptions) {
      return resume(sessionId, undoOptions, false);
    },

    diff(sessionId, turnId, path) {
      return diffFile(db, sessionId, turnId, path);
    },

    forkSession(parentSessionId, childSessionId, forkOptions) {
      return forkSession(db, parentSessionId, childSessionId, forkOptions);
    },

    prune(pruneOptions = {}) {
      const { now: at, dryRun, ...overrides } = pruneOptions;
      return pruneCheckpoints(db, { ...retention, ...overrides }, at ?? now(), dryRun === true);
    },

    async sessionBytes(sessionId) {
      assertIdentifier('sessionId', sessionId);
      const row = await db
        .selectFrom('checkpoint_restore_point')
        .select((expression) => expression.fn.sum<number>('bytes').as('bytes'))
        .where('session_id', '=', sessionId)
        .executeTakeFirstOrThrow();
      return Number(row.bytes ?? 0);
    },

    deleteSession(sessionId) {
      assertIdentifier('sessionId', sessionId);
      return deleteSessionCheckpoints(db, sessionId);
    },
  };
}
