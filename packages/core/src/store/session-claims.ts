import { databaseEngineOf } from '@clawsmith/platform';
import { ClawsmithError } from '@clawsmith/tool-protocol';
import { sql, type RawBuilder } from 'kysely';
import type { CoreDatabase, SessionClaimRow } from './core-tables.js';
import type { TurnRecord } from './session-records.js';
import { now } from './store-clock.js';

// The `session_claim` table: at most one row per session, naming the process instance that runs
// its turn and the end of its lease. Every change is one conditional statement (insert if absent,
// update if still what was read, delete if still ours), so two claimants settle on one winner on
// both engines without holding a lock across round trips. Lease times are read and written in the
// database's clock, so machines whose clocks disagree still agree on when a lease ends.

/** A process instance that can hold a claim. */
export interface ClaimOwner {
  /** The machine, as the owner names it (a host name, or `CLAWSMITH_HOST_ID`). */
  readonly host: string;
  /** The machine's boot: a pid means something only on the same host in the same boot. */
  readonly bootId: string;
  readonly pid: number;
  /** Random per AgentCore: two cores in one process are two owners. */
  readonly instance: string;
}

/** A session's claim as stored, read together with the database's clock. */
export interface StoredClaim {
  readonly owner: ClaimOwner;
  /** Epoch milliseconds (database clock) at which the lease ends unless renewed. */
  readonly expiresAt: number;
  /** When it was taken (ISO 8601). */
  readonly claimedAt: string;
}

/** What a claim read returns: the claim (if any) and the database's clock at the read. */
export interface ClaimReading {
  readonly claim: StoredClaim | undefined;
  /** The database's clock, epoch milliseconds. */
  readonly databaseNow: number;
}

function toClaim(row: SessionClaimRow): StoredClaim {
  return {
    owner: {
      host: row.owner_host,
      bootId: row.owner_boot_id,
      pid: Number(row.owner_pid),
      instance: row.owner_instance,
    },
    expiresAt: Number(row.expires_at),
    claimedAt: row.claimed_at,
  };
}

/** Now in the database's clock (epoch ms): PostgreSQL's for a shared home, this machine's for SQLite. */
function databaseClock(db: CoreDatabase): RawBuilder<number> {
  return databaseEngineOf(db) === 'postgres'
    ? sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`
    : sql<number>`${Date.now()}`;
}

/** Reads the database's clock, then the session's claim. */
export async function readClaim(db: CoreDatabase, sessionId: string): Promise<ClaimReading> {
  const clock = await sql<{ now: number | string }>`select ${databaseClock(db)} as now`.execute(db);
  const row = await db.selectFrom('session_claim').selectAll().where('session_id', '=', sessionId).executeTakeFirst();
  return { claim: row ? toClaim(row) : undefined, databaseNow: Number(clock.rows[0]!.now) };
}

/**
 * Takes the session's claim for `owner` for `leaseMs`, provided it is still as `observed` (absent,
 * or held by the same instance with the same expiry). Returns whether it was taken: `false` means
 * another claimant changed it first.
 */
export async function takeClaim(
  db: CoreDatabase,
  sessionId: string,
  owner: ClaimOwner,
  observed: StoredClaim | undefined,
  leaseMs: number,
): Promise<boolean> {
  const columns = {
    owner_host: owner.host,
    owner_boot_id: owner.bootId,
    owner_pid: owner.pid,
    owner_instance: owner.instance,
    expires_at: sql<number>`${databaseClock(db)} + ${leaseMs}`,
    claimed_at: now(),
  };
  if (observed === undefined) {
    const inserted = await db
      .insertInto('session_claim')
      .values({ session_id: sessionId, ...columns })
      .onConflict((conflict) => conflict.column('session_id').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  }
  const updated = await db
    .updateTable('session_claim')
    .set(columns)
    .where('session_id', '=', sessionId)
    .where('owner_instance', '=', observed.owner.instance)
    .where('expires_at', '=', observed.expiresAt)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** Pushes the lease of `owner`'s claim to `leaseMs` from now; `false` when it is no longer `owner`'s. */
export async function renewClaim(
  db: CoreDatabase,
  sessionId: string,
  owner: ClaimOwner,
  leaseMs: number,
): Promise<boolean> {
  const updated = await db
    .updateTable('session_claim')
    .set({ expires_at: sql<number>`${databaseClock(db)} + ${leaseMs}` })
    .where('session_id', '=', sessionId)
    .where('owner_instance', '=', owner.instance)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/**
 * Gives up `owner`'s claim and gives `owner`'s turn its final `status`, provided `owner` still
 * holds the claim; otherwise throws `turn_claim_lost`, which rolls back the transaction it runs
 * in. Run inside the transaction that appends the turn's `turn.completed`, so whoever reads the
 * turn as ended finds the session free: no window in which the turn reads ended and the claim
 * still refuses the next turn, nor one in which the claim is gone and the turn still reads running
 * (for another process's recovery to close as interrupted). A holder whose claim was taken over
 * records nothing: the taker's recovery closed the turn, and its record stands.
 */
export async function endTurnReleasing(
  transaction: CoreDatabase,
  turn: { readonly sessionId: string; readonly turnId: string; readonly status: TurnRecord['status'] },
  owner: ClaimOwner,
): Promise<void> {
  // The delete is the check: it locks the claim row (PostgreSQL) or the database (SQLite) until
  // the commit, so a taker's conditional update either ran before (nothing deleted here) or finds
  // the row gone and reads the turn ended.
  const released = await transaction
    .deleteFrom('session_claim')
    .where('session_id', '=', turn.sessionId)
    .where('owner_instance', '=', owner.instance)
    .executeTakeFirst();
  if (Number(released.numDeletedRows) !== 1) throw turnClaimLost(turn.sessionId);
  await transaction
    .updateTable('session_turn')
    .set({ status: turn.status, completed_at: now() })
    .where('session_id', '=', turn.sessionId)
    .where('turn_id', '=', turn.turnId)
    .where('status', '=', 'running')
    .execute();
}

/** The `turn_claim_lost` of a turn whose claim another process took over once its lease ran out. */
export function turnClaimLost(sessionId: string): ClawsmithError {
  return new ClawsmithError(
    'turn_claim_lost',
    `This process no longer holds session ${sessionId}: its lease ran out (the process was paused, or cut off from the database, for longer than the lease) and another process took the session over, whose recovery closed this turn as interrupted. Nothing more of this turn was recorded. Read the session's events to see what was kept, and run the turn again if it is still needed.`,
  );
}

/**
 * Throws `turn_claim_lost` unless `owner` holds the session's claim. Run first in the transaction
 * of a write the holder makes: on PostgreSQL the claim row stays locked (shared) until that
 * transaction ends, so a taker's update waits for the write to commit and its recovery reads it;
 * on SQLite the transaction holds the write lock (`BEGIN IMMEDIATE`) from the start.
 */
export async function assertClaimHeld(transaction: CoreDatabase, sessionId: string, owner: ClaimOwner): Promise<void> {
  let query = transaction
    .selectFrom('session_claim')
    .select('owner_instance')
    .where('session_id', '=', sessionId)
    .where('owner_instance', '=', owner.instance);
  if (databaseEngineOf(transaction) === 'postgres') query = query.forShare();
  if ((await query.executeTakeFirst()) === undefined) throw turnClaimLost(sessionId);
}

/** Gives up `owner`'s claim of the session (nothing when another owner holds it by now). */
export async function releaseClaim(db: CoreDatabase, sessionId: string, owner: ClaimOwner): Promise<void> {
  await db
    .deleteFrom('session_claim')
    .where('session_id', '=', sessionId)
    .where('owner_instance', '=', owner.instance)
    .execute();
}
