import { useEffect, useMemo, useRef, useState } from 'react';
import { sendJson, sessionPath } from '../api/api-client';
import type {
  CutTurnSummary,
  PendingApproval,
  SessionEvent,
  SessionSummary,
  TodoItem,
  TurnSummary,
} from '../api/api-types';
import { ApprovalPanel } from '../approvals/approval-panel';
import { ErrorNotice } from '../app/error-notice';
import { RestoreOutcomeNotice, type RestoreOutcome } from '../checkpoints/restore-outcome';
import { navigate } from '../app/hash-route';
import { LiteralText } from '../display/literal-text';
import { StatusBadge } from '../display/status-badge';
import { PromptBox } from '../prompt/prompt-box';
import { TodoPanel } from '../todos/todo-panel';
import { transcriptItems, turnRunning } from '../transcript/transcript-items';
import { TranscriptView } from '../transcript/transcript-view';
import { useJson } from './use-json';
import { useSessionEvents } from './use-session-events';

/** The sequence of the last event of one of `types`: a cheap key for refetching what they change. */
function lastOf(events: readonly SessionEvent[], types: readonly string[]): number {
  for (let index = events.length - 1; index >= 0; index -= 1)
    if (types.includes(events[index]!.type)) return events[index]!.sequence;
  return 0;
}

const NO_TURNS: readonly TurnSummary[] = [];

/**
 * One session: its transcript live over the event stream, checkpoints, todos, approvals and the
 * prompt box. `onActivity` hears a new key whenever one of its turns starts or ends (the session
 * list beside it asks again then).
 */
export function SessionView({ sessionId, onActivity }: { sessionId: string; onActivity?: (key: string) => void }) {
  const stream = useSessionEvents(sessionId);
  const { events, generation } = stream;
  const items = useMemo(() => transcriptItems(events), [events]);
  const running = turnRunning(events);
  const turnsKey = `${generation}:${lastOf(events, ['turn.started', 'turn.completed', 'session.restored'])}`;
  const session = useJson<SessionSummary>(sessionPath(sessionId), turnsKey);
  // The list beside was read as the session opened: only turns starting or ending after that change it.
  const openedTurnsKey = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!stream.loaded) return;
    openedTurnsKey.current ??= turnsKey;
    if (turnsKey !== openedTurnsKey.current) onActivity?.(`${sessionId}:${turnsKey}`);
  }, [onActivity, sessionId, turnsKey, stream.loaded]);
  const turns = useJson<{ turns: TurnSummary[]; cutTurns: CutTurnSummary[] }>(
    sessionPath(sessionId, '/turns'),
    turnsKey,
  );
  const approvals = useJson<{ approvals: PendingApproval[] }>(
    sessionPath(sessionId, '/approvals'),
    `${generation}:${lastOf(events, ['approval.requested', 'approval.resolved', 'turn.completed'])}`,
  );
  const fetchedTodos = useJson<{ todos: TodoItem[] }>(sessionPath(sessionId, '/todos'), generation);
  const liveTodos = useMemo(() => {
    for (let index = events.length - 1; index >= 0; index -= 1) {
      const event = events[index]!;
      if (event.type === 'todos.updated') return event.todos;
    }
    return undefined;
  }, [events]);
  const turnMap = useMemo(
    () => new Map((turns.data?.turns ?? []).map((turn) => [turn.turnId, turn] as const)),
    [turns.data],
  );
  const pending = approvals.data?.approvals;
  const inlineApprovals = useMemo(() => {
    const waiting = new Set(
      items.flatMap((item) => (item.kind === 'tool' && item.waitingForApproval ? [item.toolCallId] : [])),
    );
    return new Map((pending ?? []).filter((one) => waiting.has(one.toolCallId)).map((one) => [one.toolCallId, one]));
  }, [items, pending]);
  const [forkError, setForkError] = useState<unknown>();
  const [restored, setRestored] = useState<RestoreOutcome>();
  const fork = (turnId?: string) =>
    sendJson<SessionSummary>(sessionPath(sessionId, '/fork'), turnId ? { atTurnId: turnId } : {}).then(
      (child) => navigate(`/sessions/${child.id}`),
      setForkError,
    );

  return (
    <div className="session-view">
      <header className="session-header">
        <h1>
          <LiteralText text={session.data?.title ?? sessionId} limit={200} />
        </h1>
        <p className="session-meta">
          {session.data && <StatusBadge status={running ? 'running' : session.data.status} />}{' '}
          {session.data && <LiteralText text={session.data.workspaceRoot} limit={500} />}{' '}
          <button type="button" onClick={() => fork()}>
            Fork session
          </button>
        </p>
        {session.data?.delegatedBy && (
          <p className="session-parent">
            Subagent ({session.data.delegatedBy.kind}) of{' '}
            <a href={`#/sessions/${session.data.delegatedBy.sessionId}`}>{session.data.delegatedBy.sessionId}</a>
          </p>
        )}
        {session.data && session.data.children.length > 0 && (
          <ul className="session-children" aria-label="Subagents">
            {session.data.children.map((child) => (
              <li key={child.sessionId}>
                <a href={`#/sessions/${child.sessionId}`}>{child.sessionId}</a> {child.kind}{' '}
                <StatusBadge status={child.status} /> <LiteralText text={child.prompt} limit={200} />
              </li>
            ))}
          </ul>
        )}
        {session.error !== undefined && <ErrorNotice error={session.error} />}
        {stream.error !== undefined && <ErrorNotice error={stream.error} />}
        {forkError !== undefined && <ErrorNotice error={forkError} />}
      </header>
      <div className="session-body">
        <div className="session-main">
          <TranscriptView
            sessionId={sessionId}
            items={items}
            turns={turnMap}
            turnList={turns.data?.turns ?? NO_TURNS}
            cutTurns={turns.data?.cutTurns ?? NO_TURNS}
            approvals={inlineApprovals}
            hasOlder={stream.hasOlder}
            oldestSequence={events[0]?.sequence ?? 0}
            loadingOlder={stream.loadingOlder}
            loadOlder={stream.loadOlder}
            onFork={fork}
            onRestored={setRestored}
          />
          {restored && <RestoreOutcomeNotice outcome={restored} onDismiss={() => setRestored(undefined)} />}
          <PromptBox sessionId={sessionId} running={running} />
        </div>
        <aside className="session-side" aria-label="Session state">
          <ApprovalPanel
            sessionId={sessionId}
            approvals={(pending ?? []).filter((one) => !inlineApprovals.has(one.toolCallId))}
          />
          <TodoPanel todos={liveTodos ?? fetchedTodos.data?.todos} />
        </aside>
      </div>
    </div>
  );
}
