import type { CoreDatabase, SessionTurnRow, SessionUndoneTurnRow } from './core-tables.js';
import type { ClaimOwner } from './session-claims.js';
import type { TurnRecord, UndoneTurnRecord } from './session-records.js';
import { now } from './store-clock.js';

// The `session_turn` table (the turns of the conversation as it stands, by ordinal from 1) and
// `session_undone_turn` (turns a restore cut, kept so a second undo of one can say so).

function toTurn(row: SessionTurnRow): TurnRecord {
  return {
    sessionId: row.session_id,
    turnId: row.turn_id,
    ordinal: row.ordinal,
    prompt: row.prompt,
    status: row.status,
    activation: JSON.parse(row.activation_json) as string[],
    ownerPid: row.owner_pid,
    ownerHost: row.owner_host,
    ownerInstance: row.owner_instance,
    startedAt: row.started_at,
    completedAt: row.completed_at,
  };
}

function toUndoneTurn(row: SessionUndoneTurnRow): UndoneTurnRecord {
  return { ...toTurn(row), undoneAt: row.undone_at };
}

/** What a turn starts from; the store numbers it and marks it running, owned by `owner`. */
export type NewTurn = Omit<
  TurnRecord,
  'ordinal' | 'completedAt' | 'status' | 'ownerPid' | 'ownerHost' | 'ownerInstance'
> & {
  /** The process instance running it (by default this process, without a host or instance: the pid alone). */
  readonly owner?: ClaimOwner;
};

/** Inserts a running turn after the session's last one, owned by `turn.owner` (this process by default). */
export async function startTurn(db: CoreDatabase, turn: NewTurn): Promise<TurnRecord> {
  return db.transaction().execute((transaction) => insertTurn(transaction, turn));
}

/** {@link startTurn} inside the caller's transaction. */
export async function insertTurn(transaction: CoreDatabase, turn: NewTurn): Promise<TurnRecord> {
  const last = await transaction
    .selectFrom('session_turn')
    .select((builder) => builder.fn.max('ordinal').as('ordinal'))
    .where('session_id', '=', turn.sessionId)
    .executeTakeFirst();
  const row: SessionTurnRow = {
    session_id: turn.sessionId,
    turn_id: turn.turnId,
    ordinal: (last?.ordinal ?? 0) + 1,
    prompt: turn.prompt,
    status: 'running',
    activation_json: JSON.stringify(turn.activation),
    owner_pid: turn.owner?.pid ?? process.pid,
    owner_host: turn.owner?.host ?? null,
    owner_instance: turn.owner?.instance ?? null,
    started_at: turn.startedAt,
    completed_at: null,
  };
  await transaction.insertInto('session_turn').values(row).execute();
  return toTurn(row);
}

export async function completeTurn(
  db: CoreDatabase,
  sessionId: string,
  turnId: string,
  status: TurnRecord['status'],
): Promise<void> {
  await db
    .updateTable('session_turn')
    .set({ status, completed_at: now() })
    .where('session_id', '=', sessionId)
    .where('turn_id', '=', turnId)
    .execute();
}

export async function listTurns(db: CoreDatabase, sessionId: string): Promise<TurnRecord[]> {
  const rows = await db
    .selectFrom('session_turn')
    .selectAll()
    .where('session_id', '=', sessionId)
    .orderBy('ordinal')
    .execute();
  return rows.map(toTurn);
}

/**
 * The session's turns still marked running (by ordinal): what recovery looks at before every
 * turn and direct call, so it must not read the whole history (an MCP session has one turn per
 * call, thousands of them).
 */
export async function listRunningTurns(db: CoreDatabase, sessionId: string): Promise<TurnRecord[]> {
  const rows = await db
    .selectFrom('session_turn')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('status', '=', 'running')
    .orderBy('ordinal')
    .execute();
  return rows.map(toTurn);
}

export async function findTurn(db: CoreDatabase, sessionId: string, turnId: string): Promise<TurnRecord | undefined> {
  const row = await db
    .selectFrom('session_turn')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('turn_id', '=', turnId)
    .executeTakeFirst();
  return row ? toTurn(row) : undefined;
}

/** The session's latest turn (highest ordinal), if it has any. */
export async function findLastTurn(db: CoreDatabase, sessionId: string): Promise<TurnRecord | undefined> {
  const row = await db
    .selectFrom('session_turn')
    .selectAll()
    .where('session_id', '=', sessionId)
    .orderBy('ordinal', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? toTurn(row) : undefined;
}

/**
 * The prompt of each listed session's first turn (its lowest ordinal), in one query whatever the
 * number of sessions; a session without turns has no entry.
 */
export async function listFirstPrompts(db: CoreDatabase, sessionIds: readonly string[]): Promise<Map<string, string>> {
  if (sessionIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('session_turn as turn')
    .select(['turn.session_id', 'turn.prompt'])
    .where('turn.session_id', 'in', [...sessionIds])
    .where(({ eb, selectFrom }) =>
      eb(
        'turn.ordinal',
        '=',
        selectFrom('session_turn as earliest')
          .select(({ fn }) => fn.min<number>('earliest.ordinal').as('ordinal'))
          .whereRef('earliest.session_id', '=', 'turn.session_id'),
      ),
    )
    .execute();
  return new Map(rows.map((row) => [row.session_id, row.prompt]));
}

/** Turns whose conversation was undone, oldest undo first. */
export async function listUndoneTurns(db: CoreDatabase, sessionId: string): Promise<UndoneTurnRecord[]> {
  const rows = await db
    .selectFrom('session_undone_turn')
    .selectAll()
    .where('session_id', '=', sessionId)
    .orderBy('undone_at')
    .orderBy('ordinal')
    .execute();
  return rows.map(toUndoneTurn);
}

export async function findUndoneTurn(
  db: CoreDatabase,
  sessionId: string,
  turnId: string,
): Promise<UndoneTurnRecord | undefined> {
  const row = await db
    .selectFrom('session_undone_turn')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('turn_id', '=', turnId)
    .executeTakeFirst();
  return row ? toUndoneTurn(row) : undefined;
}
