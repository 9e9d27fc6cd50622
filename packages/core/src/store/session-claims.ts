import { databaseEngineOf } from '@clawsmith/platform';
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
 * Gives `owner`'s turn its final `status` and gives up `owner`'s claim. Run inside the transaction
 * that appends the turn's `turn.completed`, so whoever reads the turn as ended finds the session
 * free: no window in which the turn reads ended and the claim still refuses the next turn, nor
 * one in which the claim is gone and the turn still reads running (for another process's recovery
 * to close as interrupted).
 */
export async function endTurnReleasing(
  transaction: CoreDatabase,
  turn: { readonly sessionId: string; readonly turnId: string; readonly status: TurnRecord['status'] },
  owner: ClaimOwner,
): Promise<void> {
  await transaction
    .updateTable('session_turn')
    .set({ status: turn.status, completed_at: now() })
    .where('session_id', '=', turn.sessionId)
    .where('turn_id', '=', turn.turnId)
    // A turn whose claim was taken over is closed by the taker's recovery: that status stays.
    .where('status', '=', 'running')
    .execute();
  await transaction
    .deleteFrom('session_claim')
    .where('session_id', '=', turn.sessionId)
    .where('owner_instance', '=', owner.instance)
    .execute();
}

/** Gives up `owner`'s claim of the session (nothing when another owner holds it by now). */
export async function releaseClaim(db: CoreDatabase, sessionId: string, owner: ClaimOwner): Promise<void> {
  await db
    .deleteFrom('session_claim')
    .where('session_id', '=', sessionId)
    .where('owner_instance', '=', owner.instance)
    .execute();
}
