import { databaseEngineOf } from '@clawsmith/platform';
import { sql, type Kysely } from 'kysely';
import { chunkCount, chunkOf, putBlobs } from './blob-store.js';
import type { CheckpointTables, FileChangeRow } from './checkpoint-schema.js';
import { sqliteStatements, type SqliteHandle } from './sqlite-statements.js';
import { writeTransaction } from './write-transaction.js';

/** A content-addressed body to store: its SHA-256 and its bytes. */
export type BlobToStore = readonly [sha256: string, content: Uint8Array];

/** What the end of a turn writes in its one transaction. */
export interface TurnCompletion {
  readonly sessionId: string;
  readonly turnId: string;
  readonly blobs: readonly BlobToStore[];
  /** Paths whose rows are deleted: their change was undone within the turn. */
  readonly dropped: readonly string[];
  readonly settled: readonly FileChangeRow[];
  readonly bytes: number;
  readonly completedAt: number;
}

/** What `beginTurn` stores: the restore point, numbered after the session's last one. */
export interface RestorePointStart {
  readonly sessionId: string;
  readonly turnId: string;
  readonly workspaceRoot: string;
  readonly messageCount: number;
  readonly eventSequence: number;
  /** JSON text. */
  readonly todoSnapshot: string;
  readonly createdAt: number;
}

/** The writes of a turn's hot path: its restore point, every recorded change and the turn's end. */
export interface TurnWrites {
  /** Inserts the restore point in one statement: the sequence is computed under the write lock that the insert takes. */
  begin(point: RestorePointStart): Promise<void>;
  /** Stores pre-image bodies, inserts new rows (a row the turn has already is kept) and settles results, in one transaction. */
  record(
    blobs: readonly BlobToStore[],
    rows: readonly FileChangeRow[],
    settling: readonly FileChangeRow[],
    now: number,
  ): Promise<void>;
  complete(completion: TurnCompletion): Promise<void>;
}

const CHANGE_COLUMN_NAMES = [
  'session_id',
  'turn_id',
  'path',
  'ordinal',
  'before_state',
  'before_sha256',
  'before_mode',
  'before_bytes',
  'after_state',
  'after_sha256',
  'after_mode',
  'after_bytes',
  'after_stored',
  'lines_added',
  'lines_removed',
  'binary',
] as const;
const CHANGE_COLUMNS_TEXT = `(${CHANGE_COLUMN_NAMES.map((name) => `"${name}"`).join(', ')})`;
const CHANGE_COLUMNS = sql.raw(CHANGE_COLUMNS_TEXT);
const SETTLE_COLUMNS_TEXT = `on conflict (session_id, turn_id, path) do update set ${CHANGE_COLUMN_NAMES.slice(8)
  .map((name) => `"${name}" = excluded."${name}"`)
  .join(', ')}`;

const changeParameters = (row: FileChangeRow) => CHANGE_COLUMN_NAMES.map((name) => row[name]);

/** Rows per inserting or settling statement of the query-builder path: 16 parameters each. */
const CHANGES_PER_STATEMENT = 100;

async function insertChanges(db: Kysely<CheckpointTables>, rows: readonly FileChangeRow[], settle: boolean) {
  for (let start = 0; start < rows.length; start += CHANGES_PER_STATEMENT) {
    const values = rows
      .slice(start, start + CHANGES_PER_STATEMENT)
      .map((row) => sql`(${sql.join(changeParameters(row))})`);
    await sql`insert into checkpoint_file_change ${CHANGE_COLUMNS} values ${sql.join(values)} ${sql.raw(
      settle ? SETTLE_COLUMNS_TEXT : 'on conflict (session_id, turn_id, path) do nothing',
    )}`.execute(db);
  }
}

const INSERT_POINT = `insert into checkpoint_restore_point
    (session_id, turn_id, sequence, workspace_root, message_count, event_sequence, todo_snapshot, created_at, bytes)
  select ?, ?, coalesce(max(sequence), 0) + 1, ?, ?, ?, ?, ?, 0 from checkpoint_restore_point where session_id = ?`;
const pointParameters = (point: RestorePointStart) => [
  point.sessionId,
  point.turnId,
  point.workspaceRoot,
  point.messageCount,
  point.eventSequence,
  point.todoSnapshot,
  point.createdAt,
  point.sessionId,
];

const COMPLETE_POINT = `update checkpoint_restore_point set bytes = ?, completed_at = coalesce(completed_at, ?)
  where session_id = ? and turn_id = ?`;

/** Inserts the restore point numbered after the session's last one. */
async function insertPoint(db: Kysely<CheckpointTables>, point: RestorePointStart): Promise<void> {
  await sql`insert into checkpoint_restore_point
      (session_id, turn_id, sequence, workspace_root, message_count, event_sequence, todo_snapshot, created_at, bytes)
    select ${point.sessionId}, ${point.turnId}, coalesce(max(sequence), 0) + 1, ${point.workspaceRoot}, ${point.messageCount},
      ${point.eventSequence}, ${point.todoSnapshot}, ${point.createdAt}, 0
    from checkpoint_restore_point where session_id = ${point.sessionId}`.execute(db);
}

/** The portable path: hand-written SQL through the query builder, multi-row statements. */
function kyselyWrites(db: Kysely<CheckpointTables>): TurnWrites {
  return {
    async begin(point) {
      // PostgreSQL reads MAX(sequence) under READ COMMITTED: two processes beginning turns of one
      // session would take the same number. The session's transaction lock orders them.
      if (databaseEngineOf(db) === 'postgres') {
        await db.transaction().execute(async (transaction) => {
          await sql`select pg_advisory_xact_lock(hashtextextended(${`clawsmith.restore_point:${point.sessionId}`}, 0))`.execute(
            transaction,
          );
          await insertPoint(transaction, point);
        });
        return;
      }
      await insertPoint(db, point);
    },
    async record(blobs, rows, settling, now) {
      if (blobs.length === 0 && settling.length === 0 && rows.length <= CHANGES_PER_STATEMENT) {
        await insertChanges(db, rows, false);
        return;
      }
      // One transaction: a concurrent prune never sees a blob without the row referring to it.
      await writeTransaction(db, async (transaction) => {
        await putBlobs(transaction, blobs, now);
        await insertChanges(transaction, rows, false);
        await insertChanges(transaction, settling, true);
      });
    },
    async complete(completion) {
      const { sessionId, turnId, dropped } = completion;
      await writeTransaction(db, async (transaction) => {
        await putBlobs(transaction, completion.blobs, completion.completedAt);
        if (dropped.length > 0) {
          await transaction
            .deleteFrom('checkpoint_file_change')
            .where('session_id', '=', sessionId)
            .where('turn_id', '=', turnId)
            .where('path', 'in', dropped)
            .execute();
        }
        await insertChanges(transaction, completion.settled, true);
        await sql`update checkpoint_restore_point set bytes = ${completion.bytes}, completed_at = coalesce(completed_at, ${completion.completedAt})
          where session_id = ${sessionId} and turn_id = ${turnId}`.execute(transaction);
      });
    },
  };
}

/**
 * The SQLite path: the same statements, prepared once per connection and run synchronously
 * between `BEGIN IMMEDIATE` and `COMMIT`. Nothing else can run on the connection meanwhile (no
 * await in between), so this never interleaves with the host's queries; when the host has a
 * transaction open on it (an `await` inside one), the query-builder path waits its turn instead.
 */
function sqliteWrites(db: Kysely<CheckpointTables>, sqlite: SqliteHandle): TurnWrites {
  const fallback = kyselyWrites(db);
  const { run, immediate } = sqliteStatements(sqlite);
  const insertBlob = `insert into checkpoint_blob (sha256, content, bytes, created_at) values (?, ?, ?, ?) on conflict (sha256) do nothing`;
  const insertChunkedBlob = `insert into checkpoint_blob (sha256, content, bytes, chunks, created_at) values (?, x'', ?, ?, ?) on conflict (sha256) do nothing`;
  const insertChunk = `insert into checkpoint_blob_chunk (sha256, chunk_index, content) values (?, ?, ?) on conflict (sha256, chunk_index) do nothing`;
  const placeholders = `(${CHANGE_COLUMN_NAMES.map(() => '?').join(', ')})`;
  const insertChange = `insert into checkpoint_file_change ${CHANGE_COLUMNS_TEXT} values ${placeholders} on conflict (session_id, turn_id, path) do nothing`;
  const settleChange = `insert into checkpoint_file_change ${CHANGE_COLUMNS_TEXT} values ${placeholders} ${SETTLE_COLUMNS_TEXT}`;
  const deleteChange = `delete from checkpoint_file_change where session_id = ? and turn_id = ? and path = ?`;

  const storeBlobs = (blobs: readonly BlobToStore[], now: number) => {
    for (const [sha256, content] of blobs) {
      const chunks = chunkCount(content.byteLength);
      if (chunks === 0) {
        run(insertBlob, sha256, content, content.byteLength, now);
        continue;
      }
      // Pieces only for a new row: a body stored before keeps the pieces it has.
      if (run(insertChunkedBlob, sha256, content.byteLength, chunks, now) === 0) continue;
      for (let index = 0; index < chunks; index += 1) run(insertChunk, sha256, index, chunkOf(content, index));
    }
  };

  return {
    async begin(point) {
      if (sqlite.inTransaction) return fallback.begin(point);
      run(INSERT_POINT, ...pointParameters(point));
    },
    record(blobs, rows, settling, now) {
      if (sqlite.inTransaction) return fallback.record(blobs, rows, settling, now);
      return immediate(() => {
        storeBlobs(blobs, now);
        for (const row of rows) run(insertChange, ...changeParameters(row));
        for (const row of settling) run(settleChange, ...changeParameters(row));
      });
    },
    complete(completion) {
      if (sqlite.inTransaction) return fallback.complete(completion);
      const { sessionId, turnId } = completion;
      return immediate(() => {
        storeBlobs(completion.blobs, completion.completedAt);
        for (const path of completion.dropped) run(deleteChange, sessionId, turnId, path);
        for (const row of completion.settled) run(settleChange, ...changeParameters(row));
        run(COMPLETE_POINT, completion.bytes, completion.completedAt, sessionId, turnId);
      });
    },
  };
}

/** The hot-path writes of a store: on the SQLite connection itself when the host gave it. */
export function turnWrites(db: Kysely<CheckpointTables>, sqlite: SqliteHandle | undefined): TurnWrites {
  return sqlite === undefined ? kyselyWrites(db) : sqliteWrites(db, sqlite);
}
