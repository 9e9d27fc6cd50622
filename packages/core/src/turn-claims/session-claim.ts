import { processIsAlive } from '@clawsmith/platform';
import { ClawsmithError } from '@clawsmith/tool-protocol';
import { turnClaimLost, type ClaimOwner, type StoredClaim } from '../store/session-claims.js';
import type { SessionStore, WriteFence } from '../store/session-store.js';
import type { TurnRecord } from '../store/session-records.js';
import { sameMachine } from './turn-owner.js';

/** How long a claim lasts without a heartbeat, and how often the holder renews it. */
export interface TurnLeaseSettings {
  /** A claim not renewed for this long may be taken over by another process. Default 60 s. */
  readonly durationMs: number;
  /** How often the process running the turn renews its lease. Default 15 s (a quarter of the lease). */
  readonly renewEveryMs: number;
}

export const DEFAULT_TURN_LEASE: TurnLeaseSettings = { durationMs: 60_000, renewEveryMs: 15_000 };

/** The lease settings with defaults; `invalid_turn_lease` unless renewals come well within the lease. */
export function resolveTurnLease(lease: { durationMs?: number; renewEveryMs?: number } = {}): TurnLeaseSettings {
  const durationMs = lease.durationMs ?? DEFAULT_TURN_LEASE.durationMs;
  const renewEveryMs = lease.renewEveryMs ?? Math.max(1, Math.floor(durationMs / 4));
  if (
    !Number.isSafeInteger(durationMs) ||
    !Number.isSafeInteger(renewEveryMs) ||
    renewEveryMs < 1 ||
    renewEveryMs * 2 > durationMs
  )
    throw new ClawsmithError(
      'invalid_turn_lease',
      `turnLease needs whole milliseconds with renewEveryMs (${renewEveryMs}) at most half of durationMs (${durationMs}), so one late renewal does not lose the session; raise durationMs or lower renewEveryMs.`,
    );
  return { durationMs, renewEveryMs };
}

/** What claiming needs of the composed core. */
export interface ClaimingServices {
  readonly store: SessionStore;
  /** This core's identity in claims. */
  readonly owner: ClaimOwner;
  readonly lease: TurnLeaseSettings;
  /** Sessions with a turn running in this core. */
  readonly runningSessions: Set<string>;
}

/** A session this core holds: its turn runs until `finish` or `release`; `lost` aborts when another process took it over. */
export interface HeldSession {
  /**
   * Aborts (with `turn_claim_lost`) when a renewal finds the claim taken over after its lease ran
   * out. While held, the store writes the session's events and messages only if the claim is
   * still this core's (checked by each write in the database), and refuses every write at once
   * once `lost` fired, so the turn records nothing after the taker's recovery.
   */
  readonly lost: AbortSignal;
  /**
   * Ends the turn and frees the session at once: `end` must write the turn's end and release this
   * core's claim in one transaction; the heartbeat stops first and this core's mark is gone before
   * it commits, so whoever sees the turn ended may start the next one. Throws what `end` threw
   * (`turn_claim_lost`, writing nothing, when another process took the claim over).
   */
  finish<T>(end: () => Promise<T>): Promise<T>;
  /**
   * Stops the heartbeat and gives the claim up, unless `finish` did already. Throws
   * `turn_release_failed` when the database refuses: the claim then stays until its lease ends.
   */
  release(): Promise<void>;
}

/**
 * Whether the holder of `claim` may still be running a turn, judged by `me`: this core's own claim
 * lives while `runningHere`; another's lives until its lease ends, unless it is a process of this
 * machine and boot that is gone (then it is dead at once, without waiting for the lease).
 */
export function claimIsLive(claim: StoredClaim, databaseNow: number, me: ClaimOwner, runningHere: boolean): boolean {
  if (claim.owner.instance === me.instance) return runningHere;
  if (claim.expiresAt <= databaseNow) return false;
  if (sameMachine(claim.owner, me) && claim.owner.pid !== me.pid && !processIsAlive(claim.owner.pid)) return false;
  return true;
}

function describeHolder(claim: StoredClaim): string {
  return `It is claimed by process ${claim.owner.pid} on ${claim.owner.host}, whose lease runs to ${new Date(claim.expiresAt).toISOString()} and is renewed while its turn runs; if that process is gone, the session can be claimed once the lease has ended.`;
}

/**
 * Claims a session for one turn, direct call or recovery, over every process and machine sharing
 * the home: refused with `turn_in_progress` (`busy`, and who holds it) while this core runs one
 * there or another live owner holds the claim. A claim is taken over only when its lease has
 * ended or its holder is a process of this machine that is gone. The holder renews the lease
 * every `renewEveryMs` until `release`.
 */
export async function claimSession(services: ClaimingServices, sessionId: string, busy: string): Promise<HeldSession> {
  const { store, owner, lease, runningSessions } = services;
  if (runningSessions.has(sessionId)) throw new ClawsmithError('turn_in_progress', busy);
  runningSessions.add(sessionId);
  try {
    await takeOver(store, sessionId, owner, lease.durationMs, busy);
  } catch (error) {
    runningSessions.delete(sessionId);
    throw error;
  }
  return holdWithHeartbeat(services, sessionId, store.fenceWrites(sessionId, owner));
}

async function takeOver(
  store: SessionStore,
  sessionId: string,
  owner: ClaimOwner,
  leaseMs: number,
  busy: string,
): Promise<void> {
  // A conditional write that loses means another claimant changed the row between our read and
  // our write: read again and judge what it wrote (nearly always a live claim: refused).
  for (let attempt = 0; attempt < 3; attempt++) {
    const { claim, databaseNow } = await store.readClaim(sessionId);
    // This core's own claim is stale here: its in-process mark said no turn runs.
    if (claim && claimIsLive(claim, databaseNow, owner, false))
      throw new ClawsmithError('turn_in_progress', `${busy} ${describeHolder(claim)}`);
    if (await store.takeClaim(sessionId, owner, claim, leaseMs)) return;
  }
  throw new ClawsmithError('turn_in_progress', `${busy} Other processes are claiming it at the same moment.`);
}

function holdWithHeartbeat(services: ClaimingServices, sessionId: string, fence: WriteFence): HeldSession {
  const { store, owner, lease, runningSessions } = services;
  const lost = new AbortController();
  let released = false;
  let renewal: Promise<void> | undefined;
  const renew = async () => {
    try {
      const held = await store.renewClaim(sessionId, owner, lease.durationMs);
      if (!held && !released) {
        const reason = turnClaimLost(sessionId);
        // Before the abort: nothing the turn writes while it winds down may land after the taker's record.
        fence.refuse(reason);
        lost.abort(reason);
      }
    } catch {
      // The database did not answer: the next beat tries again, and the lease covers the gap.
    }
  };
  const heartbeat = setInterval(() => {
    if (renewal === undefined && !lost.signal.aborted) renewal = renew().finally(() => (renewal = undefined));
  }, lease.renewEveryMs);
  heartbeat.unref();
  const stopRenewing = async () => {
    clearInterval(heartbeat);
    await renewal;
  };
  return {
    lost: lost.signal,
    async finish<T>(end: () => Promise<T>): Promise<T> {
      await stopRenewing();
      // Before the commit: a turn of this core started by someone who saw the end finds no mark.
      runningSessions.delete(sessionId);
      try {
        const ended = await end();
        released = true;
        fence.lift();
        return ended;
      } catch (error) {
        runningSessions.add(sessionId);
        throw error;
      }
    },
    async release() {
      if (released) return;
      await stopRenewing();
      released = true;
      try {
        await store.releaseClaim(sessionId, owner);
      } catch (error) {
        throw new ClawsmithError(
          'turn_release_failed',
          `Session ${sessionId} could not be given up (${error instanceof Error ? error.message : String(error)}); other processes can run it once its lease ends, within ${lease.durationMs} ms, and this process can at once. Check that the database is reachable.`,
          { cause: error },
        );
      } finally {
        // Only now: a turn of this core claiming meanwhile would have its new claim deleted above.
        fence.lift();
        runningSessions.delete(sessionId);
      }
    },
  };
}

/**
 * Runs `body` while the session is held, then releases it. A release that fails is not swallowed:
 * it is thrown as `turn_release_failed`, with the body's own error (if it failed) as its cause.
 */
export async function whileHeld<T>(held: HeldSession, body: () => Promise<T>): Promise<T> {
  let outcome: { readonly value: T } | { readonly error: unknown };
  try {
    outcome = { value: await body() };
  } catch (error) {
    outcome = { error };
  }
  try {
    await held.release();
  } catch (releaseError) {
    if ('error' in outcome && ClawsmithError.isInstance(releaseError))
      throw new ClawsmithError(
        releaseError.code,
        `${releaseError.message} The turn had failed first: ${outcome.error instanceof Error ? outcome.error.message : String(outcome.error)}`,
        { cause: outcome.error },
      );
    throw releaseError;
  }
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
}

/**
 * Whether the process that runs `turn` may still be running it: a turn of this core while the
 * core runs the session; a turn recorded before claims by its pid (as before); any other while
 * the session's claim names its instance and is live.
 */
export async function turnOwnerIsAlive(services: ClaimingServices, turn: TurnRecord): Promise<boolean> {
  const { owner, runningSessions, store } = services;
  if (turn.ownerInstance === null)
    return turn.ownerPid === process.pid ? runningSessions.has(turn.sessionId) : processIsAlive(turn.ownerPid);
  if (turn.ownerInstance === owner.instance) return runningSessions.has(turn.sessionId);
  const { claim, databaseNow } = await store.readClaim(turn.sessionId);
  return claim?.owner.instance === turn.ownerInstance && claimIsLive(claim, databaseNow, owner, false);
}

/**
 * Whether another process (on this machine or another) holds the session's turn: a live claim of
 * another owner, or a running turn recorded before claims whose process lives here.
 */
export async function sessionRunsElsewhere(services: ClaimingServices, sessionId: string): Promise<boolean> {
  const { claim, databaseNow } = await services.store.readClaim(sessionId);
  if (claim && claim.owner.instance !== services.owner.instance)
    return claimIsLive(claim, databaseNow, services.owner, false);
  const last = await services.store.getLastTurn(sessionId);
  return (
    last?.status === 'running' &&
    last.ownerInstance === null &&
    last.ownerPid !== process.pid &&
    processIsAlive(last.ownerPid)
  );
}
