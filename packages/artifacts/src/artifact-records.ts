import type { Kysely } from 'kysely';
import type { LineMark } from './line-index.js';

/** Whether an artifact is still being appended to. */
export type ArtifactState = 'open' | 'complete';

interface ArtifactRecordsTable {
  id: string;
  session_id: string;
  tool_call_id: string;
  media_type: string;
  state: ArtifactState;
  byte_length: number | string | bigint;
  line_count: number | string | bigint;
  sha256: string | null;
  created_at: number | string | bigint;
  updated_at: number | string | bigint;
}

interface ArtifactLineMarksTable {
  artifact_id: string;
  line_number: number | string | bigint;
  byte_offset: number | string | bigint;
}

interface ArtifactSharesTable {
  artifact_id: string;
  session_id: string;
}

/** The tables this package owns, as Kysely sees them. */
export interface ArtifactDatabase {
  artifact_records: ArtifactRecordsTable;
  artifact_line_marks: ArtifactLineMarksTable;
  /** Artifacts another session may read too (a fork reads its parent's). */
  artifact_shares: ArtifactSharesTable;
}

/** One artifact's metadata row. */
export interface ArtifactRecord {
  readonly id: string;
  readonly sessionId: string;
  readonly toolCallId: string;
  readonly mediaType: string;
  readonly state: ArtifactState;
  readonly byteLength: number;
  readonly lineCount: number;
  readonly sha256: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

// PostgreSQL returns bigint columns as strings; SQLite as numbers.
function toRecord(row: ArtifactRecordsTable): ArtifactRecord {
  return {
    id: row.id,
    sessionId: row.session_id,
    toolCallId: row.tool_call_id,
    mediaType: row.media_type,
    state: row.state,
    byteLength: Number(row.byte_length),
    lineCount: Number(row.line_count),
    sha256: row.sha256,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** Reads and writes the artifact tables. Every multi-row change runs in one transaction. */
export class ArtifactRecords {
  constructor(private readonly db: Kysely<ArtifactDatabase>) {}

  async insert(record: ArtifactRecord, marks: readonly LineMark[]): Promise<void> {
    await this.db.transaction().execute(async (transaction) => {
      await transaction
        .insertInto('artifact_records')
        .values({
          id: record.id,
          session_id: record.sessionId,
          tool_call_id: record.toolCallId,
          media_type: record.mediaType,
          state: record.state,
          byte_length: record.byteLength,
          line_count: record.lineCount,
          sha256: record.sha256,
          created_at: record.createdAt,
          updated_at: record.updatedAt,
        })
        .execute();
      await insertMarks(transaction, record.id, marks);
    });
  }

  /** Records progress of an open artifact; false when its row is gone (session deleted). */
  async advance(
    id: string,
    progress: { byteLength: number; lineCount: number; updatedAt: number; sha256?: string; complete?: boolean },
    marks: readonly LineMark[],
  ): Promise<boolean> {
    return this.db.transaction().execute(async (transaction) => {
      const result = await transaction
        .updateTable('artifact_records')
        .set({
          byte_length: progress.byteLength,
          line_count: progress.lineCount,
          updated_at: progress.updatedAt,
          ...(progress.complete ? { state: 'complete' as const, sha256: progress.sha256 ?? null } : {}),
        })
        .where('id', '=', id)
        .where('state', '=', 'open')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await insertMarks(transaction, id, marks);
      return true;
    });
  }

  /** The artifact, when `sessionId` owns it or it is shared with `sessionId`. */
  async find(sessionId: string, id: string): Promise<ArtifactRecord | undefined> {
    const row = await this.db
      .selectFrom('artifact_records')
      .selectAll()
      .where('id', '=', id)
      .where((where) =>
        where.or([
          where('session_id', '=', sessionId),
          where.exists(
            where
              .selectFrom('artifact_shares')
              .select('artifact_shares.artifact_id')
              .where('artifact_shares.artifact_id', '=', id)
              .where('artifact_shares.session_id', '=', sessionId),
          ),
        ]),
      )
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** Lets `to` read every artifact `from` can read (its own and those shared with it); returns how many. */
  async share(from: string, to: string): Promise<number> {
    return this.db.transaction().execute(async (transaction) => {
      const owned = await transaction
        .selectFrom('artifact_records')
        .select('id')
        .where('session_id', '=', from)
        .execute();
      const shared = await transaction
        .selectFrom('artifact_shares')
        .select('artifact_id')
        .where('session_id', '=', from)
        .execute();
      const ids = [...new Set([...owned.map((row) => row.id), ...shared.map((row) => row.artifact_id)])];
      for (let start = 0; start < ids.length; start += 500)
        await transaction
          .insertInto('artifact_shares')
          .values(ids.slice(start, start + 500).map((id) => ({ artifact_id: id, session_id: to })))
          .onConflict((conflict) => conflict.doNothing())
          .execute();
      return ids.length;
    });
  }

  /**
   * Lets go of a session: its shares end; each artifact it owns passes to a session it is shared
   * with, or, shared with none, is deleted. Returns the records deleted, whose bodies the caller removes.
   */
  async releaseSession(sessionId: string): Promise<ArtifactRecord[]> {
    return this.db.transaction().execute(async (transaction) => {
      await transaction.deleteFrom('artifact_shares').where('session_id', '=', sessionId).execute();
      const owned = await transaction
        .selectFrom('artifact_records')
        .selectAll()
        .where('session_id', '=', sessionId)
        .execute();
      const deleted: ArtifactRecord[] = [];
      for (const row of owned) {
        const heir = await transaction
          .selectFrom('artifact_shares')
          .select('session_id')
          .where('artifact_id', '=', row.id)
          .orderBy('session_id')
          .limit(1)
          .executeTakeFirst();
        if (heir) {
          await transaction
            .updateTable('artifact_records')
            .set({ session_id: heir.session_id })
            .where('id', '=', row.id)
            .execute();
          await transaction
            .deleteFrom('artifact_shares')
            .where('artifact_id', '=', row.id)
            .where('session_id', '=', heir.session_id)
            .execute();
        } else deleted.push(toRecord(row));
      }
      await deleteRows(
        transaction,
        deleted.map((record) => record.id),
      );
      return deleted;
    });
  }

  async listSession(sessionId: string): Promise<ArtifactRecord[]> {
    const rows = await this.db
      .selectFrom('artifact_records')
      .selectAll()
      .where('session_id', '=', sessionId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toRecord);
  }

  async listAll(): Promise<ArtifactRecord[]> {
    const rows = await this.db.selectFrom('artifact_records').selectAll().orderBy('created_at').orderBy('id').execute();
    return rows.map(toRecord);
  }

  async hasId(id: string): Promise<boolean> {
    const row = await this.db.selectFrom('artifact_records').select('id').where('id', '=', id).executeTakeFirst();
    return row !== undefined;
  }

  /** The mark of the last line at or before `lineNumber` that starts a new index step. */
  async markAtOrBefore(id: string, lineNumber: number): Promise<{ lineNumber: number; byteOffset: number }> {
    const row = await this.db
      .selectFrom('artifact_line_marks')
      .select(['line_number', 'byte_offset'])
      .where('artifact_id', '=', id)
      .where('line_number', '<=', lineNumber)
      .orderBy('line_number', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row
      ? { lineNumber: Number(row.line_number), byteOffset: Number(row.byte_offset) }
      : { lineNumber: 1, byteOffset: 0 };
  }

  async deleteMany(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.transaction().execute((transaction) => deleteRows(transaction, ids));
  }
}

/** Deletes the artifacts' rows: records, line marks and shares. */
async function deleteRows(db: Kysely<ArtifactDatabase>, ids: readonly string[]): Promise<void> {
  for (let start = 0; start < ids.length; start += 500) {
    const batch = ids.slice(start, start + 500);
    await db.deleteFrom('artifact_line_marks').where('artifact_id', 'in', batch).execute();
    await db.deleteFrom('artifact_shares').where('artifact_id', 'in', batch).execute();
    await db.deleteFrom('artifact_records').where('id', 'in', batch).execute();
  }
}

async function insertMarks(db: Kysely<ArtifactDatabase>, id: string, marks: readonly LineMark[]): Promise<void> {
  for (let start = 0; start < marks.length; start += 200) {
    const batch = marks.slice(start, start + 200);
    await db
      .insertInto('artifact_line_marks')
      .values(batch.map((mark) => ({ artifact_id: id, line_number: mark.lineNumber, byte_offset: mark.byteOffset })))
      .execute();
  }
}
