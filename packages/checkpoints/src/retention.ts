import { sql, type Kysely } from 'kysely';
import type { CheckpointTables } from './checkpoint-schema.js';
import { CheckpointError } from './checkpoint-errors.js';
import { writeTransaction } from './write-transaction.js';

/** How long and how much history is kept. */
export interface RetentionPolicy {
  /** Restore points older than this are pruned. Default 30 days. */
  readonly maxAgeMs: number;
  /** Stored bytes (pre- and post-images, counted per reference) per session. Default 100 MiB. */
  readonly maxBytesPerSession: number;
  /** Stored bytes over all sessions. Default 1 GiB. */
  readonly maxBytesTotal: number;
  /** The newest restore points of each session that are never pruned. Default 5. */
  readonly keepNewestPerSession: number;
}

/** The defaults of {@link RetentionPolicy}, part of the contract. */
export const DEFAULT_CHECKPOINT_RETENTION: RetentionPolicy = {
  maxAgeMs: 30 * 24 * 60 * 60 * 1000,
  maxBytesPerSession: 100 * 1024 * 1024,
  maxBytesTotal: 1024 * 1024 * 1024,
  keepNewestPerSession: 5,
};

/** What a prune removed (or, in a dry run, would remove) and what it kept. */
export interface CheckpointPruneResult {
  readonly deletedRestorePoints: ReadonlyArray<{ readonly sessionId: string; readonly turnId: string }>;
  readonly deletedBlobs: number;
  readonly freedBlobBytes: number;
  /** Restore points left afterwards. */
  readonly keptRestorePoints: number;
  /** Bytes of the blobs left afterwards. */
  readonly keptBlobBytes: number;
  /** True when nothing was changed: the figures say what a real prune would do now. */
  readonly dryRun: boolean;
}

/** What deleting one session's checkpoints removed. */
export interface DeleteSessionResult {
  readonly deletedRestorePoints: number;
  readonly deletedBlobs: number;
  readonly freedBlobBytes: number;
}

// Thrown inside the transaction of a dry run so that everything it did is rolled back.
class DryRunRollback extends Error {
  constructor(readonly result: CheckpointPruneResult) {
    super('dry run');
  }
}

interface Candidate {
  readonly sessionId: string;
  readonly turnId: string;
  readonly createdAt: number;
  readonly bytes: number;
  readonly protectedPoint: boolean;
}

function choose(points: readonly Candidate[], policy: RetentionPolicy, now: number): Candidate[] {
  const chosen = new Set<Candidate>();
  const bySession = new Map<string, Candidate[]>();
  for (const point of points) {
    const sessionPoints = bySession.get(point.sessionId);
    if (sessionPoints) sessionPoints.push(point);
    else bySession.set(point.sessionId, [point]);
  }
  for (const sessionPoints of bySession.values()) {
    let used = 0;
    for (const point of sessionPoints) {
      used += point.bytes;
      if (point.protectedPoint) continue;
      if (now - point.createdAt > policy.maxAgeMs || used > policy.maxBytesPerSession) {
        chosen.add(point);
        used -= point.bytes;
      }
    }
  }
  let total = points.filter((point) => !chosen.has(point)).reduce((sum, point) => sum + point.bytes, 0);
  const oldestFirst = points
    .filter((point) => !point.protectedPoint && !chosen.has(point))
    .sort((left, right) => left.createdAt - right.createdAt);
  for (const point of oldestFirst) {
    if (total <= policy.maxBytesTotal) break;
    chosen.add(point);
    total -= point.bytes;
  }
  return [...chosen];
}

/**
 * Deletes expired and over-quota restore points (never the newest `keepNewestPerSession` of a
 * session, an unfinished turn, or a session with an undo still being applied) with their
 * changes and finished journals, then every blob nothing refers to any more.
 */
export async function pruneCheckpoints(
  db: Kysely<CheckpointTables>,
  policy: RetentionPolicy,
  now: number,
  dryRun = false,
): Promise<CheckpointPruneResult> {
  const rows = await db
    .selectFrom('checkpoint_restore_point')
    .select(['session_id', 'turn_id', 'created_at', 'completed_at', 'bytes'])
    .orderBy('session_id')
    .orderBy('sequence', 'desc')
    .execute();
  const busySessions = new Set(
    (
      await db.selectFrom('checkpoint_restore_journal').select('session_id').where('state', '=', 'applying').execute()
    ).map((row) => row.session_id),
  );
  const rank = new Map<string, number>();
  const points = rows.map((row): Candidate => {
    const index = rank.get(row.session_id) ?? 0;
    rank.set(row.session_id, index + 1);
    return {
      sessionId: row.session_id,
      turnId: row.turn_id,
      createdAt: Number(row.created_at),
      bytes: Number(row.bytes),
      protectedPoint:
        index < policy.keepNewestPerSession || row.completed_at === null || busySessions.has(row.session_id),
    };
  });
  const chosen = choose(points, policy, now);
  // A dry run does the same work in the same transaction and rolls it back, so its figures are exact.
  const work = writeTransaction(db, async (transaction) => {
    const deletedRestorePoints: Array<{ sessionId: string; turnId: string }> = [];
    for (const point of chosen) {
      // Checked again inside the write lock: the turn may have been resumed or undone meanwhile.
      const deleted = await transaction
        .deleteFrom('checkpoint_restore_point')
        .where('session_id', '=', point.sessionId)
        .where('turn_id', '=', point.turnId)
        .where('completed_at', 'is not', null)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) continue;
      await transaction
        .deleteFrom('checkpoint_file_change')
        .where('session_id', '=', point.sessionId)
        .where('turn_id', '=', point.turnId)
        .execute();
      deletedRestorePoints.push({ sessionId: point.sessionId, turnId: point.turnId });
    }
    const finishedJournals = transaction
      .selectFrom('checkpoint_restore_journal as journal')
      .select('journal.journal_id')
      .where('journal.state', '!=', 'applying')
      .where((expression) =>
        expression.or([
          expression('journal.created_at', '<', now - policy.maxAgeMs),
          expression.not(
            expression.exists(
              expression
                .selectFrom('checkpoint_restore_point as point')
                .select('point.turn_id')
                .whereRef('point.session_id', '=', 'journal.session_id')
                .whereRef('point.turn_id', '=', 'journal.turn_id'),
            ),
          ),
        ]),
      );
    await transaction.deleteFrom('checkpoint_restore_entry').where('journal_id', 'in', finishedJournals).execute();
    await transaction.deleteFrom('checkpoint_restore_journal').where('journal_id', 'in', finishedJournals).execute();
    const garbage = await deleteUnreferencedBlobs(transaction);
    const kept = await transaction
      .selectFrom('checkpoint_restore_point')
      .select((expression) => expression.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    const keptBlobs = await transaction
      .selectFrom('checkpoint_blob')
      .select((expression) => expression.fn.sum<number>('bytes').as('bytes'))
      .executeTakeFirstOrThrow();
    const result: CheckpointPruneResult = {
      deletedRestorePoints,
      ...garbage,
      keptRestorePoints: Number(kept.count),
      keptBlobBytes: Number(keptBlobs.bytes ?? 0),
      dryRun,
    };
    if (dryRun) throw new DryRunRollback(result);
    return result;
  });
  return work.catch((error: unknown) => {
    if (error instanceof DryRunRollback) return error.result;
    throw error;
  });
}

async function deleteUnreferencedBlobs(
  transaction: Kysely<CheckpointTables>,
): Promise<{ deletedBlobs: number; freedBlobBytes: number }> {
  const unreferenced = sql<boolean>`not exists (select 1 from checkpoint_file_change c where c.before_sha256 = checkpoint_blob.sha256)
      and not exists (select 1 from checkpoint_file_change c where c.after_sha256 = checkpoint_blob.sha256)
      and not exists (select 1 from checkpoint_restore_entry e where e.target_sha256 = checkpoint_blob.sha256)`;
  const garbage = await transaction
    .selectFrom('checkpoint_blob')
    .select((expression) => [
      expression.fn.countAll<number>().as('count'),
      expression.fn.sum<number>('bytes').as('bytes'),
    ])
    .where(unreferenced)
    .executeTakeFirstOrThrow();
  await transaction.deleteFrom('checkpoint_blob').where(unreferenced).execute();
  // The pieces of large bodies go with their blob rows.
  await sql`delete from checkpoint_blob_chunk where not exists
      (select 1 from checkpoint_blob b where b.sha256 = checkpoint_blob_chunk.sha256)`.execute(transaction);
  return { deletedBlobs: Number(garbage.count), freedBlobBytes: Number(garbage.bytes ?? 0) };
}

/**
 * Deletes every restore point, change and finished journal of one session, then the blobs
 * nobody refers to any more. Refused with `checkpoint_undo_in_progress` while an undo of the
 * session is being applied (it would lose what resuming it needs).
 */
export async function deleteSessionCheckpoints(
  db: Kysely<CheckpointTables>,
  sessionId: string,
): Promise<DeleteSessionResult> {
  return writeTransaction(db, async (transaction) => {
    const applying = await transaction
      .selectFrom('checkpoint_restore_journal')
      .select('journal_id')
      .where('session_id', '=', sessionId)
      .where('state', '=', 'applying')
      .executeTakeFirst();
    if (applying)
      throw new CheckpointError(
        'checkpoint_undo_in_progress',
        `An undo of session ${sessionId} is still being applied; open the session once so it finishes, then delete it.`,
      );
    const journals = transaction
      .selectFrom('checkpoint_restore_journal')
      .select('journal_id')
      .where('session_id', '=', sessionId);
    await transaction.deleteFrom('checkpoint_restore_entry').where('journal_id', 'in', journals).execute();
    await transaction.deleteFrom('checkpoint_restore_journal').where('session_id', '=', sessionId).execute();
    await transaction.deleteFrom('checkpoint_file_change').where('session_id', '=', sessionId).execute();
    const points = await transaction
      .deleteFrom('checkpoint_restore_point')
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    return { deletedRestorePoints: Number(points.numDeletedRows), ...(await deleteUnreferencedBlobs(transaction)) };
  });
}
