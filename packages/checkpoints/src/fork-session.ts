import type { Kysely } from 'kysely';
import { CheckpointError } from './checkpoint-errors.js';
import type { CheckpointTables } from './checkpoint-schema.js';
import { requireRestorePoint } from './undo-plan.js';
import { writeTransaction } from './write-transaction.js';

/** Options of a fork. */
export interface ForkOptions {
  /** Copy restore points up to and including this turn; default all completed ones. */
  readonly upToTurnId?: string;
}

/** What a fork copied. */
export interface ForkResult {
  readonly sessionId: string;
  readonly copiedTurnIds: readonly string[];
}

/**
 * Copies the parent's completed restore points (metadata and change rows; blobs stay shared by
 * hash) to a new child session. Undo in either session afterwards marks only its own points.
 */
export async function forkSession(
  db: Kysely<CheckpointTables>,
  parentSessionId: string,
  childSessionId: string,
  options: ForkOptions = {},
): Promise<ForkResult> {
  if (childSessionId.length === 0 || childSessionId === parentSessionId) {
    throw new CheckpointError(
      'checkpoint_session_exists',
      `Fork into a new, non-empty session id different from ${parentSessionId}.`,
    );
  }
  const limit =
    options.upToTurnId === undefined ? undefined : await requireRestorePoint(db, parentSessionId, options.upToTurnId);
  if (limit !== undefined && limit.completed_at === null) {
    throw new CheckpointError(
      'checkpoint_turn_in_progress',
      `Turn ${limit.turn_id} is still running; fork after it completes.`,
      { retryable: true },
    );
  }
  return writeTransaction(db, async (transaction) => {
    const existing = await transaction
      .selectFrom('checkpoint_restore_point')
      .select('turn_id')
      .where('session_id', '=', childSessionId)
      .executeTakeFirst();
    if (existing !== undefined) {
      throw new CheckpointError(
        'checkpoint_session_exists',
        `Session ${childSessionId} already has restore points; fork into a new session id.`,
      );
    }
    let query = transaction
      .selectFrom('checkpoint_restore_point')
      .selectAll()
      .where('session_id', '=', parentSessionId)
      .where('completed_at', 'is not', null)
      .orderBy('sequence', 'asc');
    if (limit !== undefined) query = query.where('sequence', '<=', limit.sequence);
    const points = await query.execute();
    for (const point of points) {
      await transaction
        .insertInto('checkpoint_restore_point')
        .values({
          ...point,
          session_id: childSessionId,
          forked_from_session_id: point.forked_from_session_id ?? parentSessionId,
        })
        .execute();
      const changes = await transaction
        .selectFrom('checkpoint_file_change')
        .selectAll()
        .where('session_id', '=', parentSessionId)
        .where('turn_id', '=', point.turn_id)
        .execute();
      for (let start = 0; start < changes.length; start += 50) {
        await transaction
          .insertInto('checkpoint_file_change')
          .values(changes.slice(start, start + 50).map((change) => ({ ...change, session_id: childSessionId })))
          .execute();
      }
    }
    return { sessionId: childSessionId, copiedTurnIds: points.map((point) => point.turn_id) };
  });
}
