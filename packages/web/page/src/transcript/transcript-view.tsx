import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { PendingApproval, TurnSummary } from '../api/api-types';
import { CheckpointCard } from '../checkpoints/checkpoint-card';
import type { RestoreOutcome } from '../checkpoints/restore-outcome';
import { AssistantItem, CompactionMarker, NoticeItem, PromptItem } from './message-items';
import { ToolCard } from './tool-card';
import type { TranscriptItem } from './transcript-items';

interface TranscriptViewProps {
  readonly sessionId: string;
  readonly items: readonly TranscriptItem[];
  readonly turns: ReadonlyMap<string, TurnSummary>;
  /** The same turns as a list, oldest first (a restore takes a turn and every later one). */
  readonly turnList: readonly TurnSummary[];
  /** Turns an earlier conversation restore cut whose files are still in place (a files restore puts them back too). */
  readonly cutTurns: readonly TurnSummary[];
  /** Pending approvals by tool call id, shown in their call's card. */
  readonly approvals: ReadonlyMap<string, PendingApproval>;
  readonly hasOlder: boolean;
  /** The sequence of the oldest event loaded (shown as `data-oldest-sequence` for tests and tools). */
  readonly oldestSequence: number;
  readonly loadingOlder: boolean;
  readonly loadOlder: () => void;
  readonly onFork: (turnId: string) => void;
  readonly onRestored: (outcome: RestoreOutcome) => void;
}

interface ItemViewProps {
  item: TranscriptItem;
  props: TranscriptViewProps;
  expandedCalls: ReadonlySet<string>;
  toggleCall: (toolCallId: string) => void;
}

function ItemView({ item, props, expandedCalls, toggleCall }: ItemViewProps) {
  switch (item.kind) {
    case 'prompt':
      return <PromptItem text={item.text} />;
    case 'assistant':
      return <AssistantItem text={item.text} />;
    case 'tool':
      return (
        <ToolCard
          item={item}
          sessionId={props.sessionId}
          approval={props.approvals.get(item.toolCallId)}
          expanded={expandedCalls.has(item.toolCallId)}
          onToggle={toggleCall}
        />
      );
    case 'checkpoint':
      return (
        <CheckpointCard
          sessionId={props.sessionId}
          turn={props.turns.get(item.turnId)}
          status={item.status}
          {...(item.usage ? { usage: item.usage } : {})}
          allTurns={props.turnList}
          cutTurns={props.cutTurns}
          onFork={props.onFork}
          onRestored={props.onRestored}
        />
      );
    case 'notice':
      return <NoticeItem text={item.text} />;
    case 'compaction':
      return <CompactionMarker text={item.text} />;
  }
}

/**
 * A row's height before it is measured, near what it will measure (a collapsed tool card is one
 * line): the view then settles at its end in one or two passes instead of several.
 */
function estimatedHeight(item: TranscriptItem | undefined, expandedCalls: ReadonlySet<string>): number {
  if (item?.kind === 'tool') return expandedCalls.has(item.toolCallId) ? 240 : 44;
  if (item?.kind === 'checkpoint') return 120;
  return 60;
}

/**
 * The transcript, virtualized: only the rows near the viewport are in the DOM. Reaching the top
 * loads the previous page of events (keeping the view still); new events keep the view at the
 * end when it was there.
 */
export function TranscriptView(props: TranscriptViewProps) {
  const { items, hasOlder, loadingOlder, loadOlder } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const offset = hasOlder ? 1 : 0;
  // Which tool cards are open, kept here so a card scrolled out of the DOM and back stays as it was.
  const [expandedCalls, setExpandedCalls] = useState<ReadonlySet<string>>(() => new Set());
  const virtualizer = useVirtualizer({
    count: items.length + offset,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => estimatedHeight(index < offset ? undefined : items[index - offset], expandedCalls),
    overscan: 4,
    getItemKey: (index) => (index < offset ? 'older' : items[index - offset]!.key),
  });
  const rows = virtualizer.getVirtualItems();

  const toggleCall = useCallback((toolCallId: string) => {
    setExpandedCalls((previous) => {
      const next = new Set(previous);
      if (!next.delete(toolCallId)) next.add(toolCallId);
      return next;
    });
  }, []);

  // Keep the rows in view still when older ones are prepended: hold the distance from the bottom.
  const firstKey = items[0]?.key;
  const fromBottom = useRef<number | undefined>(undefined);
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && fromBottom.current !== undefined) {
      element.scrollTop = virtualizer.getTotalSize() - fromBottom.current;
      fromBottom.current = undefined;
    }
  }, [firstKey, virtualizer]);

  // Follow new events while the view is at the end (and start at the end).
  const atEnd = useRef(true);
  const lastKey = items.at(-1)?.key;
  useEffect(() => {
    if (atEnd.current && items.length > 0) virtualizer.scrollToIndex(items.length - 1 + offset, { align: 'end' });
  }, [lastKey, items.length, offset, virtualizer]);

  // Rows measured taller or shorter than estimated change the total height after that scroll: stay at the end.
  const totalSize = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && atEnd.current && fromBottom.current === undefined)
      element.scrollTop = element.scrollHeight - element.clientHeight;
  }, [totalSize]);

  // The first rows rendered are the top ones, before the scroll to the end: older events are loaded
  // only once the view has been at its end for a frame (then the top is in view only when the
  // loaded events do not fill the view, or when the reader scrolled there).
  const [openedAtEnd, setOpenedAtEnd] = useState(false);
  const hasItems = items.length > 0;
  useEffect(() => {
    if (openedAtEnd || !hasItems) return;
    const frame = requestAnimationFrame(() => setOpenedAtEnd(true));
    return () => cancelAnimationFrame(frame);
  }, [openedAtEnd, hasItems]);

  const olderVisible = openedAtEnd && hasOlder && rows[0]?.index === 0;
  useEffect(() => {
    if (!olderVisible || loadingOlder || items.length === 0) return;
    const element = scroller.current;
    if (element) fromBottom.current = virtualizer.getTotalSize() - element.scrollTop;
    loadOlder();
  }, [olderVisible, loadingOlder, loadOlder, items.length, virtualizer]);

  return (
    <div
      ref={scroller}
      className="transcript"
      role="log"
      aria-label="Transcript"
      tabIndex={0}
      data-oldest-sequence={props.oldestSequence}
      onScroll={(event) => {
        const element = event.currentTarget;
        atEnd.current = element.scrollHeight - element.scrollTop - element.clientHeight < 48;
      }}
    >
      <div className="transcript-canvas" style={{ height: totalSize }}>
        {rows.map((row) => (
          <div
            key={row.key}
            data-index={row.index}
            ref={virtualizer.measureElement}
            className="transcript-row"
            style={{ transform: `translateY(${row.start}px)` }}
          >
            {row.index < offset ? (
              <button type="button" className="older" onClick={loadOlder} disabled={loadingOlder}>
                {loadingOlder ? 'Loading older events…' : 'Load older events'}
              </button>
            ) : (
              <ItemView
                item={items[row.index - offset]!}
                props={props}
                expandedCalls={expandedCalls}
                toggleCall={toggleCall}
              />
            )}
          </div>
        ))}
      </div>
    </div>
  );
}
