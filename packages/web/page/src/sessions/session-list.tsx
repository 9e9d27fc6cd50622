import { useState } from 'react';
import type { SessionSummary } from '../api/api-types';
import { ErrorNotice } from '../app/error-notice';
import { LiteralText } from '../display/literal-text';
import { StatusBadge } from '../display/status-badge';
import { NewSessionForm } from './new-session-form';
import { matchesFilter } from './session-filter';
import { topLevelSessions, useSessionSummaries } from './use-session-summaries';

function SessionRow({ session }: { session: SessionSummary }) {
  return (
    <>
      <a href={`#/sessions/${session.id}`}>
        <LiteralText text={session.title ?? session.id} limit={200} />
      </a>{' '}
      <StatusBadge status={session.status} />{' '}
      <span className="workspace">
        <LiteralText text={session.workspaceRoot} limit={300} />
      </span>{' '}
      <time dateTime={session.lastActivityAt}>{new Date(session.lastActivityAt).toLocaleString('en')}</time>
    </>
  );
}

/**
 * A new-session form, then every session, newest activity first, searched by text (title, first
 * prompt, workspace), subagents under their parent; each opens its session view.
 */
export function SessionList() {
  const [filter, setFilter] = useState('');
  const { sessions: listed, error } = useSessionSummaries();
  const sessions = (listed ?? []).filter((session) => matchesFilter(session, filter));
  return (
    <section className="session-list" aria-labelledby="sessions-heading">
      <h1 id="sessions-heading">Sessions</h1>
      <NewSessionForm />
      <label className="filter">
        Search sessions{' '}
        <input
          type="search"
          value={filter}
          placeholder="title, first prompt or folder"
          onChange={(event) => setFilter(event.target.value)}
        />
      </label>
      {error !== undefined && <ErrorNotice error={error} />}
      {listed && sessions.length === 0 && <p className="empty">No sessions{filter ? ' match the search' : ''}.</p>}
      <ul>
        {topLevelSessions(sessions).map((session) => (
          <li key={session.id} className="session-row">
            <SessionRow session={session} />
            {session.children.length > 0 && (
              <ul className="child-sessions" aria-label="Subagents">
                {session.children.map((child) => (
                  <li key={child.sessionId} className="session-row child-session">
                    ↳ <a href={`#/sessions/${child.sessionId}`}>{child.sessionId}</a> <span>{child.kind}</span>{' '}
                    <StatusBadge status={child.status} /> <LiteralText text={child.prompt} limit={200} />
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
