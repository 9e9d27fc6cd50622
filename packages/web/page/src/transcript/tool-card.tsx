import type { PendingApproval } from '../api/api-types';
import { ApprovalCard } from '../approvals/approval-card';
import { CodeBadge, StatusBadge } from '../display/status-badge';
import { DisplayView } from '../display/display-view';
import { LiteralText } from '../display/literal-text';
import { toolDuration, toolSize } from './tool-summary';
import type { ToolProgress, TranscriptItem } from './transcript-items';
import { wholeNumber } from '../display/whole-number';

type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;

/**
 * One tool call as one line: a button with its name, status and code badges, its target, its
 * size and duration, which expands the display (rendered by kind) on click, Enter or Space. A call
 * waiting for approval shows the approval right here, a running one its progress, open or not.
 */
export function ToolCard({
  item,
  sessionId,
  approval,
  expanded,
  onToggle,
}: {
  item: ToolItem;
  sessionId: string;
  /** The pending approval of this call, answered right here in the transcript. */
  approval?: PendingApproval | undefined;
  /** Whether the details are shown (kept by the transcript, so it survives scrolling away). */
  expanded: boolean;
  onToggle: (toolCallId: string) => void;
}) {
  const status = item.result?.status ?? (item.waitingForApproval ? 'waiting' : 'running');
  const title = item.result?.display?.title ?? item.summary;
  const size = toolSize(item);
  const took = toolDuration(item);
  const detailsId = `tool-details-${item.toolCallId}`;
  const line = (
    <>
      <span className="tool-name">{item.toolName}</span> <StatusBadge status={status} />
      {item.result?.code !== undefined && <CodeBadge code={item.result.code} />}{' '}
      <span className="tool-title">
        <LiteralText text={title} limit={300} />
      </span>
      {(size !== undefined || took !== undefined) && ' '}
      {(size !== undefined || took !== undefined) && (
        <span className="tool-size">{[size, took].filter((part) => part !== undefined).join(' · ')}</span>
      )}
    </>
  );
  return (
    <article className={`card tool tool-${status}`} aria-label={`Tool call ${item.toolName}: ${status}`}>
      {item.result ? (
        <button
          type="button"
          className="tool-line"
          aria-expanded={expanded}
          aria-controls={expanded ? detailsId : undefined}
          onClick={() => onToggle(item.toolCallId)}
        >
          <span className="tool-toggle" aria-hidden="true">
            {expanded ? '▾' : '▸'}
          </span>
          {line}
        </button>
      ) : (
        <div className="tool-line">{line}</div>
      )}
      {!item.result && item.waitingForApproval && approval && (
        <ApprovalCard sessionId={sessionId} approval={approval} />
      )}
      {!item.result && item.progress && <ProgressView toolName={item.toolName} progress={item.progress} />}
      {item.result && expanded && (
        <div id={detailsId} className="tool-details">
          <DisplayView sessionId={sessionId} result={item.result} output={item.output} />
        </div>
      )}
    </article>
  );
}

function amount(value: number): string {
  return Number.isInteger(value) ? wholeNumber(value) : value.toFixed(1);
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
