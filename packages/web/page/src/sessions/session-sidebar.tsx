import { useState } from 'react';
import type { SessionSummary } from '../api/api-types';
import { ErrorNotice } from '../app/error-notice';
import { LiteralText } from '../display/literal-text';
import { StatusBadge } from '../display/status-badge';
import { matchesFilter } from './session-filter';
import { topLevelSessions, useSessionSummaries } from './use-session-summaries';

function SidebarLink({ session, open }: { session: SessionSummary; open: boolean }) {
  return (
    <a href={`#/sessions/${session.id}`} aria-current={open ? 'page' : undefined}>
      <LiteralText text={session.title ?? session.id} limit={120} />
    </a>
  );
}

/**
 * The session list beside the open session on wide screens: searchable, the open session marked
 * (`aria-current="page"`), following new sessions and status changes as the full list does.
 * Below 760 px it is hidden and the top navigation leads to the full list instead.
 */
export function SessionSidebar({ openSessionId, refresh }: { openSessionId: string; refresh: unknown }) {
  const [filter, setFilter] = useState('');
  const { sessions: listed, error } = useSessionSummaries(refresh);
  const sessions = (listed ?? []).filter((session) => session.id === openSessionId || matchesFilter(session, filter));
  return (
    <nav className="sessions-sidebar" aria-labelledby="sidebar-heading">
      <h2 id="sidebar-heading">Sessions</h2>
      <a href="#/" className="new-session-link">
        New session
      </a>
      <label className="filter">
        <span className="visually-hidden">Search sessions</span>
        <input
          type="search"
          value={filter}
          placeholder="Search sessions"
          onChange={(event) => setFilter(event.target.value)}
        />
      </label>
      {error !== undefined && <ErrorNotice error={error} />}
      <ul>
        {topLevelSessions(sessions).map((session) => (
          <li key={session.id} className={session.id === openSessionId ? 'sidebar-row open' : 'sidebar-row'}>
            <SidebarLink session={session} open={session.id === openSessionId} />{' '}
            <StatusBadge status={session.status} />
            {session.children.length > 0 && (
              <ul className="child-sessions" aria-label="Subagents">
                {session.children.map((child) => (
                  <li
                    key={child.sessionId}
                    className={child.sessionId === openSessionId ? 'sidebar-row open' : 'sidebar-row'}
                  >
                    ↳{' '}
                    <a
                      href={`#/sessions/${child.sessionId}`}
                      aria-current={child.sessionId === openSessionId ? 'page' : undefined}
                    >
                      <LiteralText text={child.prompt || child.sessionId} limit={80} />
                    </a>{' '}
                    <StatusBadge status={child.status} />
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
