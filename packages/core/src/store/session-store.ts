import type { DatabaseHandle } from '@clawsmith/platform';
import type { ModelMessage } from '@clawsmith/providers';
import type { CoreDatabase } from './core-tables.js';
import { coreDatabase } from './open-database.js';
import * as approvals from './session-approvals.js';
import * as claims from './session-claims.js';
import { SessionEventLog, type SessionEventListener } from './session-event-log.js';
import * as history from './session-history.js';
import * as messages from './session-messages.js';
import type {
  NewSessionEvent,
  PendingApproval,
  SessionEvent,
  SessionRecord,
  TodoItem,
  TurnRecord,
  UndoneTurnRecord,
} from './session-records.js';
import * as sessions from './sessions.js';
import * as turns from './session-turns.js';
import * as todos from './todos-and-activation.js';
import { stepWrites, type TurnStep } from './turn-step.js';

export type { SessionEventListener } from './session-event-log.js';
export type { TurnStep } from './turn-step.js';

/** What {@link SessionStore.fenceWrites} returns: the holder's hold on its own writes to a session. */
export interface WriteFence {
  /** Refuses every later write to the session with `reason` (the holder learnt its claim is lost). */
  refuse(reason: Error): void;
  /** Ends the fence (the claim was given up); a newer fence of the session stays. */
  lift(): void;
}

/**
 * Sessions, messages, events, turns, approvals, todos and the deferred activation set, in the
 * embedded database. Event sequence numbers are assigned inside the insert itself, so two
 * processes appending to one session cannot take the same number.
 *
 * One method per operation, each handed to the module of its table (`sessions.ts`,
 * `session-messages.ts`, `session-event-log.ts`, `session-turns.ts`, `session-approvals.ts`,
 * `todos-and-activation.ts`) or, when it spans them, to `session-history.ts`.
 */
export class SessionStore {
  readonly #db: CoreDatabase;
  readonly #events: SessionEventLog;
  /** Sessions this store writes to as a claim's holder: whose claim, and why writes are refused once it is lost. */
  readonly #held = new Map<string, { readonly owner: claims.ClaimOwner; lost?: Error }>();

  /** `db` is the home database, migrated by `migrateCore`. */
  constructor(db: DatabaseHandle) {
    this.#db = coreDatabase(db);
    this.#events = new SessionEventLog(this.#db);
  }

  /**
   * Until the fence is lifted, this store's events and messages of the session land only while
   * `owner` holds its claim, checked in the database by the write itself (else `turn_claim_lost`,
   * nothing written): a holder whose claim another process took over cannot write after the
   * taker's recovery, even before its heartbeat notices. Once {@link WriteFence.refuse}d, every
   * write of this store to the session (events, messages, title, todos, activation, approvals,
   * the turn's end) is refused at once. A newer fence of the session replaces this one.
   */
  fenceWrites(sessionId: string, owner: claims.ClaimOwner): WriteFence {
    const fence: { readonly owner: claims.ClaimOwner; lost?: Error } = { owner };
    this.#held.set(sessionId, fence);
    return {
      refuse: (reason) => {
        fence.lost = reason;
      },
      // Only its own: the next turn of this core may have fenced the session already.
      lift: () => {
        if (this.#held.get(sessionId) === fence) this.#held.delete(sessionId);
      },
    };
  }

  /** The owner a write to the session must still be the holder of, if any; throws once it is known lost. */
  #holderFor(sessionId: string): claims.ClaimOwner | undefined {
    this.#assertNotLost(sessionId);
    return this.#held.get(sessionId)?.owner;
  }

  /** Throws the reason once this process's claim on the session is known lost (writes that carry no fence). */
  #assertNotLost(sessionId: string): void {
    const lost = this.#held.get(sessionId)?.lost;
    if (lost) throw lost;
  }

  /** Follows every event this process persists; returns the unsubscribe function. */
  subscribe(listener: SessionEventListener): () => void {
    return this.#events.subscribe(listener);
  }

  async createSession(input: sessions.NewSession): Promise<SessionRecord> {
    return sessions.insertSession(this.#db, input);
  }

  async getSession(sessionId: string): Promise<SessionRecord | undefined> {
    return sessions.findSession(this.#db, sessionId);
  }

  /** The session, or a `session_not_found` error that says how to list sessions. */
  async requireSession(sessionId: string): Promise<SessionRecord> {
    return sessions.requireSession(this.#db, sessionId);
  }

  /** Sessions by last activity, newest first; `limit` and `offset` page through them. */
  async listSessions(options: { limit?: number; offset?: number } = {}): Promise<SessionRecord[]> {
    return sessions.listSessions(this.#db, options);
  }

  /**
   * Replaces a session's title (unlike `setTitle`, which only fills a missing one) and returns
   * the renamed session; `session_not_found` when there is none.
   */
  async renameSession(sessionId: string, title: string): Promise<SessionRecord> {
    return sessions.renameSession(this.#db, sessionId, title);
  }

  /** Gives the session a title unless it has one. */
  async setTitle(sessionId: string, title: string): Promise<void> {
    this.#assertNotLost(sessionId);
    await sessions.fillMissingTitle(this.#db, sessionId, title);
  }

  /** Deletes the session's row and everything stored under it here (events, messages, turns, approvals, todos). */
  async deleteSession(sessionId: string): Promise<void> {
    await history.deleteSessionRows(this.#db, sessionId);
  }

  async appendMessages(sessionId: string, turnId: string | null, list: readonly ModelMessage[]): Promise<void> {
    await messages.appendMessages(this.#db, sessionId, turnId, list, this.#holderFor(sessionId));
  }

  async listMessages(sessionId: string): Promise<ModelMessage[]> {
    return messages.listMessages(this.#db, sessionId);
  }

  async countMessages(sessionId: string): Promise<number> {
    return messages.countMessages(this.#db, sessionId);
  }

  /** Appends events numbered after the session's last one (atomically), then tells the subscribers. */
  async appendEvents(sessionId: string, events: readonly NewSessionEvent[]): Promise<SessionEvent[]> {
    return this.#events.append(sessionId, events, undefined, this.#holderFor(sessionId));
  }

  async appendEvent(sessionId: string, event: NewSessionEvent): Promise<SessionEvent> {
    const [stored] = await this.#events.append(sessionId, [event], undefined, this.#holderFor(sessionId));
    return stored!;
  }

  /**
   * Writes one step of a turn (its events, messages and activation) in one transaction, the
   * events numbered after the session's last one, then tells the subscribers. Held like
   * {@link appendEvents}: `turn_claim_lost`, nothing written, once the claim is another's.
   */
  async recordStep(sessionId: string, step: TurnStep): Promise<SessionEvent[]> {
    return this.#events.append(sessionId, step.events, stepWrites(sessionId, step), this.#holderFor(sessionId));
  }

  async listEvents(
    sessionId: string,
    options: { afterSequence?: number; turnId?: string; limit?: number } = {},
  ): Promise<SessionEvent[]> {
    return this.#events.list(sessionId, options);
  }

  async lastSequence(sessionId: string): Promise<number> {
    return this.#events.lastSequence(sessionId);
  }

  /** The session's events of one `type`, oldest first. */
  async listEventsOfType<T extends SessionEvent['type']>(
    sessionId: string,
    type: T,
  ): Promise<Extract<SessionEvent, { type: T }>[]> {
    return this.#events.listOfType(sessionId, type);
  }

  async startTurn(turn: turns.NewTurn): Promise<TurnRecord> {
    return turns.startTurn(this.#db, turn);
  }

  /** The session's claim (who runs its turn, until when) and the database's clock. */
  async readClaim(sessionId: string): Promise<claims.ClaimReading> {
    return claims.readClaim(this.#db, sessionId);
  }

  /**
   * Takes the session's claim for `owner` for `leaseMs` if it is still as `observed` (read by
   * {@link readClaim}); `false` when another claimant changed it first.
   */
  async takeClaim(
    sessionId: string,
    owner: claims.ClaimOwner,
    observed: claims.StoredClaim | undefined,
    leaseMs: number,
  ): Promise<boolean> {
    return claims.takeClaim(this.#db, sessionId, owner, observed, leaseMs);
  }

  /** Renews `owner`'s lease to `leaseMs` from now; `false` when the claim is no longer `owner`'s. */
  async renewClaim(sessionId: string, owner: claims.ClaimOwner, leaseMs: number): Promise<boolean> {
    return claims.renewClaim(this.#db, sessionId, owner, leaseMs);
  }

  /**
   * Ends a turn in one transaction: appends its `turn.completed` event, gives the turn its final
   * status and gives up `owner`'s claim, so a reader that sees the turn ended sees the session free.
   * Throws `turn_claim_lost`, writing nothing, when `owner` no longer holds the claim.
   */
  async endTurn(
    sessionId: string,
    turnId: string,
    status: TurnRecord['status'],
    owner: claims.ClaimOwner,
    event: NewSessionEvent,
  ): Promise<SessionEvent> {
    const [stored] = await this.#events.append(
      sessionId,
      [event],
      (transaction) => claims.endTurnReleasing(transaction, { sessionId, turnId, status }, owner),
      this.#holderFor(sessionId),
    );
    return stored!;
  }

  /** Gives up `owner`'s claim (nothing when another owner holds it by now). */
  async releaseClaim(sessionId: string, owner: claims.ClaimOwner): Promise<void> {
    await claims.releaseClaim(this.#db, sessionId, owner);
  }

  async completeTurn(sessionId: string, turnId: string, status: TurnRecord['status']): Promise<void> {
    this.#assertNotLost(sessionId);
    await turns.completeTurn(this.#db, sessionId, turnId, status);
  }

  async listTurns(sessionId: string): Promise<TurnRecord[]> {
    return turns.listTurns(this.#db, sessionId);
  }

  /** The session's turns still marked running; their owners may have died. */
  async listRunningTurns(sessionId: string): Promise<TurnRecord[]> {
    return turns.listRunningTurns(this.#db, sessionId);
  }

  /** Turns whose conversation was undone (cut by a session restore), oldest undo first. */
  async listUndoneTurns(sessionId: string): Promise<UndoneTurnRecord[]> {
    return turns.listUndoneTurns(this.#db, sessionId);
  }

  /** A turn whose conversation was undone, if `turnId` is one. */
  async getUndoneTurn(sessionId: string, turnId: string): Promise<UndoneTurnRecord | undefined> {
    return turns.findUndoneTurn(this.#db, sessionId, turnId);
  }

  /** The first turn's prompt of each of `sessionIds` that has turns, read in one query (session lists). */
  async listFirstPrompts(sessionIds: readonly string[]): Promise<Map<string, string>> {
    return turns.listFirstPrompts(this.#db, sessionIds);
  }

  /** The session's latest turn (highest ordinal), if it has any. */
  async getLastTurn(sessionId: string): Promise<TurnRecord | undefined> {
    return turns.findLastTurn(this.#db, sessionId);
  }

  async getTurn(sessionId: string, turnId: string): Promise<TurnRecord | undefined> {
    return turns.findTurn(this.#db, sessionId, turnId);
  }

  async getTodos(sessionId: string): Promise<TodoItem[]> {
    return todos.listTodos(this.#db, sessionId);
  }

  async setTodos(sessionId: string, list: readonly TodoItem[]): Promise<void> {
    this.#assertNotLost(sessionId);
    await todos.setTodos(this.#db, sessionId, list);
  }

  async getActivation(sessionId: string): Promise<string[]> {
    return todos.getActivation(this.#db, sessionId);
  }

  async setActivation(sessionId: string, activeTools: readonly string[]): Promise<void> {
    this.#assertNotLost(sessionId);
    await todos.setActivation(this.#db, sessionId, activeTools);
  }

  async addApproval(approval: Omit<PendingApproval, 'id' | 'createdAt'>): Promise<PendingApproval> {
    this.#assertNotLost(approval.sessionId);
    return approvals.addApproval(this.#db, approval);
  }

  async removeApproval(approvalId: string): Promise<void> {
    await approvals.removeApproval(this.#db, approvalId);
  }

  async listApprovals(sessionId: string): Promise<PendingApproval[]> {
    return approvals.listApprovals(this.#db, sessionId);
  }

  /**
   * Cuts the session back to a restore point: later messages, events and turns go (the turns
   * are kept as undone), approvals are cleared, todos and activation replaced; one transaction
   * that throws `turn_already_undone`, changing nothing, when another process cut it first.
   */
  async truncate(sessionId: string, point: history.TruncationPoint): Promise<void> {
    await history.truncateSession(this.#db, sessionId, point);
  }

  /** Copies a session's messages, events and turns up to a point into another session. */
  async copyHistory(fromSessionId: string, toSessionId: string, point: history.CopyPoint): Promise<void> {
    await history.copyHistory(this.#db, fromSessionId, toSessionId, point);
  }
}
