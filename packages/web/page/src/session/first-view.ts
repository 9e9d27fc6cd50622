import { sessionPath } from '../api/api-client';
import { prefetchJson } from '../api/prefetch';

/** Events per page read from the API. */
export const EVENT_PAGE = 200;

/** The session list the sidebar and the list view ask for. */
export const SESSION_LIST_PATH = '/api/sessions?limit=200';

/** The page a session opens on: its newest events. */
export function newestEventsPath(sessionId: string): string {
  return sessionPath(sessionId, `/events?newest=${EVENT_PAGE}`);
}

/**
 * Starts every request a session's first view makes, the transcript's events first, before the
 * page renders at all (the server answers them while React starts).
 */
export function prefetchSessionView(sessionId: string): void {
  prefetchJson([
    newestEventsPath(sessionId),
    sessionPath(sessionId),
    sessionPath(sessionId, '/turns'),
    sessionPath(sessionId, '/approvals'),
    sessionPath(sessionId, '/todos'),
    SESSION_LIST_PATH,
  ]);
}
