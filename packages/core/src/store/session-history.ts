import { ClawsmithError } from '@clawsmith/tool-protocol';
import type { CoreDatabase } from './core-tables.js';
import { databaseEngineOf } from '@clawsmith/platform';
import { insertChunks } from './insert-chunks.js';
import { announceSessionChange } from './session-change-notice.js';
import type { TodoItem } from './session-records.js';
import { now } from './store-clock.js';
import { activationJson, replaceTodos } from './todos-and-activation.js';

// What spans every table of a session: cutting it back to a restore point, copying it into a
// fork, deleting it. Each is one transaction.

/** Where a restore cuts a session back to (taken from the restore point of `turnId`). */
export interface TruncationPoint {
  turnId: string;
  messageCount: number;
  eventSequence: number;
  turnOrdinal: number;
  todos: readonly TodoItem[];
  activation: readonly string[];
}

/** How much of a session a fork copies. */
export interface CopyPoint {
  messageCount: number;
  eventSequence: number;
  turnOrdinal: number;
}

/**
 * Cuts the session back to a restore point: messages after `messageCount` and events after
 * `eventSequence` are deleted, turns started after it are forgotten, pending approvals cleared,
 * the todo list and the activation set replaced. One transaction, which changes nothing and
 * throws `turn_already_undone` when `turnId` is no longer a turn of the session by the time it
 * holds the write lock (another process cut the same conversation first).
 */
export async function truncateSession(db: CoreDatabase, sessionId: string, point: TruncationPoint): Promise<void> {
  await db.transaction().execute(async (transaction) => {
    await transaction
      .deleteFrom('session_message')
      .where('session_id', '=', sessionId)
      .where('position', '>', point.messageCount)
      .execute();
    await transaction
      .deleteFrom('session_event')
      .where('session_id', '=', sessionId)
      .where('sequence', '>', point.eventSequence)
      .execute();
    const undoneAt = now();
    const undone = await transaction
      .selectFrom('session_turn')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('ordinal', '>=', point.turnOrdinal)
      .execute();
    // Checked after the first write: the transaction holds the write lock by now, so a restore
    // of another process either committed before (and is seen here) or waits for this one.
    if (!undone.some((row) => row.turn_id === point.turnId))
      throw new ClawsmithError(
        'turn_already_undone',
        `The conversation of turn ${point.turnId} was just cut back by another restore; nothing more to cut. ` +
          `Reload the session to see where it stands.`,
      );
    for (const row of undone)
      await transaction
        .insertInto('session_undone_turn')
        .values({ ...row, undone_at: undoneAt })
        .onConflict((conflict) => conflict.columns(['session_id', 'turn_id']).doNothing())
        .execute();
    await transaction
      .deleteFrom('session_turn')
      .where('session_id', '=', sessionId)
      .where('ordinal', '>=', point.turnOrdinal)
      .execute();
    await transaction.deleteFrom('session_approval').where('session_id', '=', sessionId).execute();
    const timestamp = now();
    await replaceTodos(transaction, sessionId, point.todos, timestamp);
    await transaction
      .updateTable('session')
      .set({ activation_json: activationJson(point.activation), updated_at: timestamp })
      .where('id', '=', sessionId)
      .execute();
    if (databaseEngineOf(db) === 'postgres') await announceSessionChange(transaction, sessionId, point.eventSequence);
  });
}

/** Copies a session's messages, events and turns up to a point, and its todo list, into another session. */
export async function copyHistory(
  db: CoreDatabase,
  fromSessionId: string,
  toSessionId: string,
  point: CopyPoint,
): Promise<void> {
  await db.transaction().execute(async (transaction) => {
    const messages = await transaction
      .selectFrom('session_message')
      .selectAll()
      .where('session_id', '=', fromSessionId)
      .where('position', '<=', point.messageCount)
      .execute();
    for (const chunk of insertChunks(messages))
      await transaction
        .insertInto('session_message')
        .values(chunk.map((row) => ({ ...row, session_id: toSessionId })))
        .execute();
    const events = await transaction
      .selectFrom('session_event')
      .selectAll()
      .where('session_id', '=', fromSessionId)
      .where('sequence', '<=', point.eventSequence)
      .execute();
    for (const chunk of insertChunks(events))
      await transaction
        .insertInto('session_event')
        .values(chunk.map((row) => ({ ...row, session_id: toSessionId })))
        .execute();
    const turns = await transaction
      .selectFrom('session_turn')
      .selectAll()
      .where('session_id', '=', fromSessionId)
      .where('ordinal', '<=', point.turnOrdinal)
      .execute();
    if (turns.length > 0)
      await transaction
        .insertInto('session_turn')
        .values(turns.map((row) => ({ ...row, session_id: toSessionId })))
        .execute();
    const todos = await transaction
      .selectFrom('session_todos')
      .selectAll()
      .where('session_id', '=', fromSessionId)
      .execute();
    if (todos.length > 0)
      await transaction
        .insertInto('session_todos')
        .values(todos.map((row) => ({ ...row, session_id: toSessionId })))
        .execute();
    if (databaseEngineOf(db) === 'postgres')
      await announceSessionChange(
        transaction,
        toSessionId,
        events.reduce((last, row) => Math.max(last, row.sequence), 0),
      );
  });
}

/** The tables whose rows belong to one session by `session_id`. */
const SESSION_OWNED_TABLES = [
  'session_event',
  'session_message',
  'session_turn',
  'session_undone_turn',
  'session_approval',
  'session_todos',
  'session_claim',
] as const;

/** Deletes the session's row and everything stored under it here (events, messages, turns, approvals, todos). */
export async function deleteSessionRows(db: CoreDatabase, sessionId: string): Promise<void> {
  await db.transaction().execute(async (transaction) => {
    for (const table of SESSION_OWNED_TABLES)
      await transaction.deleteFrom(table).where('session_id', '=', sessionId).execute();
    // Its own delegation record and those of the children it delegated (the children stay sessions).
    await transaction
      .deleteFrom('session_delegation')
      .where((where) =>
        where.or([where('child_session_id', '=', sessionId), where('parent_session_id', '=', sessionId)]),
      )
      .execute();
    await transaction.deleteFrom('session').where('id', '=', sessionId).execute();
    if (databaseEngineOf(db) === 'postgres') await announceSessionChange(transaction, sessionId, 0);
  });
}
