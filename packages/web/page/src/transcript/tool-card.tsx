import type { PendingApproval } from '../api/api-types';
import { ApprovalCard } from '../approvals/approval-card';
import { CodeBadge, StatusBadge } from '../display/status-badge';
import { DisplayView } from '../display/display-view';
import { LiteralText } from '../display/literal-text';
import type { ToolProgress, TranscriptItem } from './transcript-items';

type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;

/** One tool call: its name, status and code badges, title, its approval while waiting, and its display rendered by kind. */
export function ToolCard({
  item,
  sessionId,
  approval,
}: {
  item: ToolItem;
  sessionId: string;
  /** The pending approval of this call, answered right here in the transcript. */
  approval?: PendingApproval | undefined;
}) {
  const status = item.result?.status ?? (item.waitingForApproval ? 'waiting' : 'running');
  const title = item.result?.display?.title ?? item.summary;
  return (
    <article className={`card tool tool-${status}`} aria-label={`Tool call ${item.toolName}: ${status}`}>
      <header>
        <span className="tool-name">{item.toolName}</span> <StatusBadge status={status} />
        {item.result?.code !== undefined && <CodeBadge code={item.result.code} />}{' '}
        <span className="tool-title">
          <LiteralText text={title} limit={300} />
        </span>
      </header>
      {!item.result && item.waitingForApproval && approval && (
        <ApprovalCard sessionId={sessionId} approval={approval} />
      )}
      {!item.result && item.progress && <ProgressView toolName={item.toolName} progress={item.progress} />}
      {item.result && <DisplayView sessionId={sessionId} result={item.result} output={item.output} />}
    </article>
  );
}

function amount(value: number): string {
  return Number.isInteger(value) ? value.toLocaleString('en') : value.toFixed(1);
}

/** A running call's latest progress: a bar when the total is known, `3/10 · message` beside it. */
function ProgressView({ toolName, progress }: { toolName: string; progress: ToolProgress }) {
  const counted =
    progress.total === undefined ? amount(progress.progress) : `${amount(progress.progress)}/${amount(progress.total)}`;
  return (
    <div className="tool-progress">
      {progress.total !== undefined && (
        <progress
          aria-label={`Progress of ${toolName}`}
          max={progress.total}
          value={Math.min(progress.progress, progress.total)}
        />
      )}
      <span className="progress-text">
        {counted}
        {progress.message !== undefined && (
          <>
            {' · '}
            <LiteralText text={progress.message} limit={200} />
          </>
        )}
      </span>
    </div>
  );
}
