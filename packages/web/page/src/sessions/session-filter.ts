import type { SessionSummary } from '../api/api-types';

/** Whether a session matches the list's search text (title, first prompt, workspace, id or status; case-insensitive). */
export function matchesFilter(session: SessionSummary, filter: string): boolean {
  const needle = filter.trim().toLowerCase();
  if (needle === '') return true;
  return [session.title ?? '', session.firstPrompt ?? '', session.workspaceRoot, session.id, session.status].some(
    (field) => field.toLowerCase().includes(needle),
  );
}
