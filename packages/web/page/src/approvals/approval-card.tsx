import { useState } from 'react';
import { sendJson, sessionPath } from '../api/api-client';
import type { PendingApproval } from '../api/api-types';
import { ErrorNotice } from '../app/error-notice';
import { DiffLines } from '../display/diff-lines';
import { LiteralText } from '../display/literal-text';

type Answer = 'allow' | 'deny' | 'allow-session';

/** What the call will do: the command it runs, the edit it makes, or its arguments. */
function CallPreview({ input }: { input: unknown }) {
  const fields = (input ?? {}) as Record<string, unknown>;
  if (typeof fields.command === 'string')
    return (
      <p>
        Command: <LiteralText text={fields.command} limit={4_000} />
      </p>
    );
  if (typeof fields.oldText === 'string' && typeof fields.newText === 'string') {
    const diff = [
      ...fields.oldText.split('\n').map((line) => `-${line}`),
      ...fields.newText.split('\n').map((line) => `+${line}`),
    ].join('\n');
    return <DiffLines diff={diff} />;
  }
  return <LiteralText text={JSON.stringify(input, null, 2) ?? ''} limit={4_000} block />;
}

/** The keys that answer an approval while its card has focus (never while typing in a field). */
const ANSWER_KEYS: Readonly<Record<string, Answer>> = { a: 'allow', d: 'deny', s: 'allow-session' };

/**
 * One pending approval with allow / deny / always for this session. With focus on the card, the
 * keys A, D and S answer it. Focus is never moved here by itself: a person typing the next prompt
 * must not answer an approval by accident.
 */
export function ApprovalCard({ sessionId, approval }: { sessionId: string; approval: PendingApproval }) {
  const [answered, setAnswered] = useState<Answer>();
  const [error, setError] = useState<unknown>();
  const [sending, setSending] = useState(false);
  const answer = (choice: Answer) => {
    if (sending) return;
    setSending(true);
    setError(undefined);
    sendJson(sessionPath(sessionId, `/approvals/${encodeURIComponent(approval.id)}`), { answer: choice })
      .then(() => setAnswered(choice), setError)
      .finally(() => setSending(false));
  };
  return (
    <article
      className="card approval"
      aria-label={`Approval for ${approval.toolName}`}
      tabIndex={0}
      onKeyDown={(event) => {
        if (answered || !approval.answerableHere) return;
        if (event.altKey || event.ctrlKey || event.metaKey || event.target !== event.currentTarget) return;
        const choice = ANSWER_KEYS[event.key.toLowerCase()];
        if (choice) {
          event.preventDefault();
          answer(choice);
        }
      }}
    >
      <header>
        <span className="tool-name">{approval.toolName}</span> <span className="badge risk">{approval.risk}</span>{' '}
        <LiteralText text={approval.summary} limit={300} />
      </header>
      <p className="reason">
        <LiteralText text={approval.reason} limit={500} />
      </p>
      {approval.input !== undefined && <CallPreview input={approval.input} />}
      {answered ? (
        <p role="status">Answered: {answered}</p>
      ) : approval.answerableHere ? (
        <div className="answers">
          <button type="button" aria-keyshortcuts="A" onClick={() => answer('allow')}>
            Allow
          </button>{' '}
          <button type="button" className="danger" aria-keyshortcuts="D" onClick={() => answer('deny')}>
            Deny
          </button>{' '}
          <button type="button" aria-keyshortcuts="S" onClick={() => answer('allow-session')}>
            Always allow in this session
          </button>
          <p className="hint">With this card focused: A allows, D denies, S always allows in this session.</p>
        </div>
      ) : (
        <p className="notice">Another process runs this turn: answer it in that terminal.</p>
      )}
      {error !== undefined && <ErrorNotice error={error} />}
    </article>
  );
}
