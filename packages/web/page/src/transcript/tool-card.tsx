import { CodeBadge, StatusBadge } from '../display/status-badge';
import { DisplayView } from '../display/display-view';
import { LiteralText } from '../display/literal-text';
import type { TranscriptItem } from './transcript-items';

type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;

/** One tool call: its name, status and code badges, title, and its display rendered by kind. */
export function ToolCard({ item, sessionId }: { item: ToolItem; sessionId: string }) {
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
      {item.result && <DisplayView sessionId={sessionId} result={item.result} output={item.output} />}
    </article>
  );
}
