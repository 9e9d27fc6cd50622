import { databaseEngineOf } from '@clawsmith/platform';
import { readSessionEvent } from '@clawsmith/session-protocol';
import { sql } from 'kysely';
import type { CoreDatabase, SessionEventRow } from './core-tables.js';
import { INSERT_CHUNK, insertChunks } from './insert-chunks.js';
import { announceSessionChange } from './session-change-notice.js';
import { assertClaimHeld, turnClaimLost, type ClaimOwner } from './session-claims.js';
import type { NewSessionEvent, SessionEvent } from './session-records.js';
import { now } from './store-clock.js';

/** The largest sequence the `integer` column holds on either engine. */
const MAX_SEQUENCE = 2_147_483_647;

/** Receives every event right after it is persisted. */
export type SessionEventListener = (event: SessionEvent) => void;

/** An event about to be inserted: its place in the batch (from 1) and its columns. */
interface PendingEventRow {
  readonly offset: number;
  readonly type: SessionEventRow['type'];
  readonly turnId: string | null;
  readonly payloadJson: string;
}

/** A stored row read through the event contract (a row it cannot read becomes `event.unrecognized`). */
function toEvent(row: SessionEventRow): SessionEvent {
  return readSessionEvent({
    ...(JSON.parse(row.payload_json) as Record<string, unknown>),
    type: row.type,
    sessionId: row.session_id,
    turnId: row.turn_id,
    sequence: row.sequence,
    createdAt: row.created_at,
  });
}

/**
 * The `session_event` table and the listeners of this process: every event appended here is
 * handed to each listener once it is stored.
 */
export class SessionEventLog {
  readonly #db: CoreDatabase;
  readonly #listeners = new Set<SessionEventListener>();
  /** PostgreSQL: appends lock the session's log first (see {@link lockSessionLog}). */
  readonly #lockPerSession: boolean;

  constructor(db: CoreDatabase) {
    this.#db = db;
    this.#lockPerSession = databaseEngineOf(db) === 'postgres';
  }

  /** Follows every event this process persists; returns the unsubscribe function. */
  subscribe(listener: SessionEventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Appends events, numbering them after the session's last event. One INSERT … SELECT takes
   * the numbers from MAX(sequence) inside the statement itself, so the numbering is atomic (even
   * with another process appending to the same session) without an explicit transaction, and a
   * batch of events costs one statement. A batch larger than {@link INSERT_CHUNK} rows is written in
   * chunks inside one transaction (SQLite bounds the variables of one statement). On PostgreSQL
   * the statement alone is not enough (two transactions read the same MAX under READ COMMITTED),
   * so each append is a transaction that first takes the session's lock, and announces the
   * session's new last sequence before it commits (see `announceSessionChange`). `alongside`
   * writes more in the same transaction (a turn's end with its `turn.completed`). With `heldBy`,
   * the events land only while that owner holds the session's claim (the same statement on
   * SQLite, a locked read first in the transaction on PostgreSQL), else `turn_claim_lost` and
   * nothing is written.
   */
  async append(
    sessionId: string,
    events: readonly NewSessionEvent[],
    alongside?: (transaction: CoreDatabase) => Promise<void>,
    heldBy?: ClaimOwner,
  ): Promise<SessionEvent[]> {
    if (events.length === 0 && !alongside) return [];
    const timestamp = now();
    const rows = events.map(({ type, turnId, ...payload }, index): PendingEventRow => ({
      offset: index + 1,
      type,
      turnId: turnId ?? null,
      payloadJson: JSON.stringify(payload),
    }));
    const first =
      rows.length <= INSERT_CHUNK && !this.#lockPerSession && !alongside
        ? await insertNumbered(this.#db, sessionId, timestamp, rows, heldBy)
        : await this.#db.transaction().execute(async (transaction) => {
            if (this.#lockPerSession) await lockSessionLog(transaction, sessionId);
            if (heldBy) await assertClaimHeld(transaction, sessionId, heldBy);
            let start = 0;
            for (const chunk of insertChunks(rows)) {
              const chunkFirst = await insertNumbered(transaction, sessionId, timestamp, chunk);
              if (chunk[0]!.offset === 1) start = chunkFirst;
            }
            await alongside?.(transaction);
            if (this.#lockPerSession && rows.length > 0)
              await announceSessionChange(transaction, sessionId, start + rows.length - 1);
            return start;
          });
    // Read back through the contract like any stored row, so a subscriber gets exactly what a later
    // reader gets (about 2-3 % of a served read_file's processor time in a profile of mcp serve).
    const stored = rows.map((row) =>
      toEvent({
        session_id: sessionId,
        sequence: first + row.offset - 1,
        type: row.type,
        turn_id: row.turnId,
        payload_json: row.payloadJson,
        created_at: timestamp,
      }),
    );
    for (const event of stored) this.#notify(event);
    return stored;
  }

  async list(
    sessionId: string,
    options: { afterSequence?: number; turnId?: string; limit?: number },
  ): Promise<SessionEvent[]> {
    let query = this.#db
      .selectFrom('session_event')
      .selectAll()
      .where('session_id', '=', sessionId)
      // The column is a 32-bit integer: PostgreSQL refuses a larger bound rather than match nothing.
      .where('sequence', '>', Math.min(options.afterSequence ?? 0, MAX_SEQUENCE));
    if (options.turnId) query = query.where('turn_id', '=', options.turnId);
    query = query.orderBy('sequence');
    if (options.limit !== undefined) query = query.limit(options.limit);
    const rows = await query.execute();
    return rows.map(toEvent);
  }

  /** The session's events of one type, oldest first (read by type, not by scanning the log). */
  async listOfType<T extends SessionEvent['type']>(
    sessionId: string,
    type: T,
  ): Promise<Extract<SessionEvent, { type: T }>[]> {
    const rows = await this.#db
      .selectFrom('session_event')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('type', '=', type as SessionEventRow['type'])
      .orderBy('sequence')
      .execute();
    return rows.map(toEvent).filter((event): event is Extract<SessionEvent, { type: T }> => event.type === type);
  }

  async lastSequence(sessionId: string): Promise<number> {
    const row = await this.#db
      .selectFrom('session_event')
      .select((builder) => builder.fn.max('sequence').as('sequence'))
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    return row?.sequence ?? 0;
  }

  #notify(event: SessionEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A failing subscriber must not break the turn that produced the event.
      }
    }
  }
}

/**
 * Takes the PostgreSQL transaction lock of one session's event log, so that appends to that
 * session from any process on any machine number their events one after another; appends to
 * other sessions do not wait. Released when the transaction ends.
 */
async function lockSessionLog(db: CoreDatabase, sessionId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`clawsmith.session_event:${sessionId}`}, 0))`.execute(db);
}

/**
 * Inserts one chunk after the session's last event in one statement; returns the sequence the
 * batch's first event (offset 1) has, whichever offset this chunk starts at.
 */
async function insertNumbered(
  db: CoreDatabase,
  sessionId: string,
  timestamp: string,
  chunk: readonly PendingEventRow[],
  heldBy?: ClaimOwner,
): Promise<number> {
  const skipped = chunk[0]!.offset - 1;
  // The cast types the VALUES column on PostgreSQL, where an untyped parameter is text.
  const values = sql.join(
    chunk.map((row) => sql`(cast(${row.offset} as integer), ${row.type}, ${row.turnId}, ${row.payloadJson})`),
  );
  const inserted = await sql<Pick<SessionEventRow, 'sequence'>>`
    insert into session_event (session_id, sequence, type, turn_id, payload_json, created_at)
    select ${sessionId}, base.last_sequence + batch.column1 - ${skipped}, batch.column2, batch.column3, batch.column4, ${timestamp}
    from (select coalesce(max(sequence), 0) as last_sequence from session_event where session_id = ${sessionId}) as base
    cross join (values ${values}) as batch
    ${heldBy ? sql`where exists (select 1 from session_claim where session_id = ${sessionId} and owner_instance = ${heldBy.instance})` : sql``}
    order by batch.column1
    returning sequence`.execute(db);
  if (inserted.rows.length === 0) throw turnClaimLost(sessionId);
  return Math.min(...inserted.rows.map((row) => row.sequence)) - skipped;
}
