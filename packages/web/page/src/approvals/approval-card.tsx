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

/** One pending approval with allow / deny / always for this session. */
export function ApprovalCard({ sessionId, approval }: { sessionId: string; approval: PendingApproval }) {
  const [answered, setAnswered] = useState<Answer>();
  const [error, setError] = useState<unknown>();
  const answer = (choice: Answer) =>
    sendJson(sessionPath(sessionId, `/approvals/${encodeURIComponent(approval.id)}`), { answer: choice }).then(
      () => setAnswered(choice),
      setError,
    );
  return (
    <article className="card approval" aria-label={`Approval for ${approval.toolName}`}>
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
          <button type="button" onClick={() => answer('allow')}>
            Allow
          </button>{' '}
          <button type="button" className="danger" onClick={() => answer('deny')}>
            Deny
          </button>{' '}
          <button type="button" onClick={() => answer('allow-session')}>
            Always allow in this session
          </button>
        </div>
      ) : (
        <p className="notice">Another process runs this turn: answer it in that terminal.</p>
      )}
      {error !== undefined && <ErrorNotice error={error} />}
    </article>
  );
}
