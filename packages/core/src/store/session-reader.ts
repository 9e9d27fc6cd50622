import type { ModelMessage } from '@clawsmith/providers';
import type {
  PendingApproval,
  SessionEvent,
  SessionRecord,
  TodoItem,
  TurnRecord,
  UndoneTurnRecord,
} from './session-records.js';

/**
 * What a front end (the web server, an editor bridge) reads of a home's sessions through
 * `AgentCore.sessions`, and the one thing it may change there, a title. Everything that writes
 * history (turns, events, restores) goes through the core's own methods, so every door into a
 * home keeps the same order and the same recovery.
 */
export interface SessionReader {
  /** The session, or a `session_not_found` error that says how to list sessions. */
  requireSession(sessionId: string): Promise<SessionRecord>;
  /** Sessions by last activity, newest first; `limit` and `offset` page through them. */
  listSessions(options?: { limit?: number; offset?: number }): Promise<SessionRecord[]>;
  /** Replaces a session's title and returns the renamed session (`session_not_found` when there is none). */
  renameSession(sessionId: string, title: string): Promise<SessionRecord>;
  /** The conversation the model sees next, oldest first. */
  listMessages(sessionId: string): Promise<ModelMessage[]>;
  /** The session's events in order: after `afterSequence`, of one turn, at most `limit`. */
  listEvents(
    sessionId: string,
    options?: { afterSequence?: number; turnId?: string; limit?: number },
  ): Promise<SessionEvent[]>;
  /** The sequence of the session's last event (0 when it has none). */
  lastSequence(sessionId: string): Promise<number>;
  /** The session's turns, oldest first, without those a session restore undid. */
  listTurns(sessionId: string): Promise<TurnRecord[]>;
  /** Turns whose conversation a session restore undid, oldest first (their restore points remain). */
  listUndoneTurns(sessionId: string): Promise<UndoneTurnRecord[]>;
  /** The first prompt of each listed session that has one, in one read. */
  listFirstPrompts(sessionIds: readonly string[]): Promise<Map<string, string>>;
  /** One turn of the session, if it exists. */
  getTurn(sessionId: string, turnId: string): Promise<TurnRecord | undefined>;
  /** The session's latest turn, if any. */
  getLastTurn(sessionId: string): Promise<TurnRecord | undefined>;
  /**
   * Whether another live process, on this machine or another, holds the session's turn (its
   * claim's lease has not run out, or its process of this machine is alive); `false` for this
   * core's own turns.
   */
  runsElsewhere(sessionId: string): Promise<boolean>;
  /** The session's todo list as the model last wrote it. */
  getTodos(sessionId: string): Promise<TodoItem[]>;
  /** Approvals waiting for a person's answer, oldest first. */
  listApprovals(sessionId: string): Promise<PendingApproval[]>;
}
