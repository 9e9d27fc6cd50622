import { useEffect, useState } from 'react';
import type { SessionSummary } from '../api/api-types';
import { SESSION_LIST_PATH } from '../session/first-view';
import { useJson } from '../session/use-json';

/** How often the session list asks again: sessions other processes start or finish appear within this. */
export const SESSION_LIST_REFRESH_MS = 5_000;

/**
 * The newest 200 sessions, asked again every few seconds and whenever `refresh` changes (the open
 * session's turns starting or ending), so the list follows what any process does to the home.
 */
export function useSessionSummaries(refresh: unknown = 0): {
  readonly sessions: readonly SessionSummary[] | undefined;
  readonly error: unknown;
} {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((value) => value + 1), SESSION_LIST_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  const { data, error } = useJson<{ sessions: SessionSummary[] }>(SESSION_LIST_PATH, `${tick}:${String(refresh)}`);
  return { sessions: data?.sessions, error };
}

/** The sessions to list at the top: a subagent's session is listed under its parent when the parent is listed. */
export function topLevelSessions(sessions: readonly SessionSummary[]): SessionSummary[] {
  const listed = new Set(sessions.map((session) => session.id));
  return sessions.filter((session) => !session.delegatedBy || !listed.has(session.delegatedBy.sessionId));
}
