import { sql } from 'kysely';
import type { CoreDatabase } from './core-tables.js';

/**
 * The PostgreSQL notification channel on which every change of a session's events is announced
 * (appended, cut back by a restore, copied into a fork, deleted). Processes of every version
 * sharing a home must agree on it.
 */
export const SESSION_CHANGE_CHANNEL = 'clawsmith_session_changed';

/** The payload of one announcement: the session id, a colon, and its last sequence after the change. */
export function sessionChangePayload(sessionId: string, lastSequence: number): string {
  return `${sessionId}:${lastSequence}`;
}

/** Reads a payload of {@link sessionChangePayload}; undefined for anything else. */
export function parseSessionChangePayload(payload: string): { sessionId: string; lastSequence: number } | undefined {
  const colon = payload.lastIndexOf(':');
  if (colon <= 0) return undefined;
  const lastSequence = Number(payload.slice(colon + 1));
  if (!Number.isSafeInteger(lastSequence) || lastSequence < 0) return undefined;
  return { sessionId: payload.slice(0, colon), lastSequence };
}

/**
 * Announces a change of a session's events on PostgreSQL, inside the transaction `db` that made
 * it: the server delivers the notification when that transaction commits, and never when it rolls
 * back, so a listener is told exactly about what others can read. The payload is small (the
 * session and a sequence), never the events: listeners read them by sequence.
 */
export async function announceSessionChange(db: CoreDatabase, sessionId: string, lastSequence: number): Promise<void> {
  await sql`select pg_notify(${SESSION_CHANGE_CHANNEL}, ${sessionChangePayload(sessionId, lastSequence)})`.execute(db);
}
