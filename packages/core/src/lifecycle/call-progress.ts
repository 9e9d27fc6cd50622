import type { ToolProgress } from '@clawsmith/tool-protocol';
import type { NewSessionEvent } from '../store/session-records.js';

/**
 * How much progress one call may write. A tool (or the MCP server behind it) may report a
 * thousand times a second; the store, the terminal and every web client pay for each event.
 */
export const PROGRESS_BOUNDS = Object.freeze({
  /** At most one `tool.progress` per call in this many milliseconds (the latest report wins). */
  intervalMs: 500,
  /** After {@link PROGRESS_BOUNDS.eventsAtFullRate} events, one per this many milliseconds. */
  slowIntervalMs: 5_000,
  /** Events a call writes at the full rate (a minute of reports). */
  eventsAtFullRate: 120,
  /** Events one call writes at most (about 75 minutes of reports); later reports are dropped. */
  eventsPerCall: 1_000,
  /** A longer message is cut to this many characters and ends with `…`. */
  messageCharacters: 200,
});

/** The progress of one running call, as the tool sees it (`report`) and as the lifecycle ends it (`finish`). */
export interface CallProgress {
  /** The tool's `context.reportProgress`: never throws, whatever it is given or whenever it is called. */
  readonly report: (progress: ToolProgress) => void;
  /** Stops the reports: a pending one is dropped (`tool.completed` is the final state) and in-flight writes settle first. */
  finish(): Promise<void>;
}

/** The fields of a report that survive bounding, or `undefined` when it has no usable `progress`. */
function boundedReport(raw: unknown, floor: number): ToolProgress | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { progress, total, message } = raw as Record<string, unknown>;
  if (typeof progress !== 'number' || !Number.isFinite(progress)) return undefined;
  // Progress only grows (MCP requires it); a negative or shrinking value keeps the last one.
  const bounded: { progress: number; total?: number; message?: string } = { progress: Math.max(progress, floor, 0) };
  if (typeof total === 'number' && Number.isFinite(total) && total > 0) bounded.total = total;
  if (typeof message === 'string' && message !== '') {
    // 2n+2 UTF-16 units hold at least n+1 characters: enough to know whether to cut, without splitting a pair.
    const head = Array.from(message.slice(0, PROGRESS_BOUNDS.messageCharacters * 2 + 2));
    bounded.message =
      head.length > PROGRESS_BOUNDS.messageCharacters
        ? `${head.slice(0, PROGRESS_BOUNDS.messageCharacters - 1).join('')}…`
        : message;
  }
  return bounded;
}

/**
 * Turns a tool's progress reports into throttled `tool.progress` events of one call: at most one
 * per {@link PROGRESS_BOUNDS}`.intervalMs` (the latest report wins, written when the interval
 * ends), a bounded number in all, none after {@link CallProgress.finish}. A write that fails is
 * dropped: progress is a view of the call, never part of its outcome.
 */
export function callProgress(options: {
  readonly turnId: string;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly write: (event: NewSessionEvent) => Promise<unknown>;
}): CallProgress {
  let finished = false;
  let written = 0;
  let lastWriteAt = Number.NEGATIVE_INFINITY;
  let floor = 0;
  let pending: ToolProgress | undefined;
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<unknown> = Promise.resolve();

  const interval = () =>
    written < PROGRESS_BOUNDS.eventsAtFullRate ? PROGRESS_BOUNDS.intervalMs : PROGRESS_BOUNDS.slowIntervalMs;

  const writePending = () => {
    timer = undefined;
    if (finished || pending === undefined || written >= PROGRESS_BOUNDS.eventsPerCall) return;
    const progress = pending;
    pending = undefined;
    written += 1;
    lastWriteAt = Date.now();
    const event: NewSessionEvent = {
      type: 'tool.progress',
      turnId: options.turnId,
      toolCallId: options.toolCallId,
      toolName: options.toolName,
      ...progress,
    };
    // Chained, so events keep the order of the reports and finish() can wait for the last one.
    writing = writing.then(() => options.write(event)).catch(() => undefined);
  };

  const report = (raw: ToolProgress) => {
    try {
      if (finished || written >= PROGRESS_BOUNDS.eventsPerCall) return;
      const bounded = boundedReport(raw, floor);
      if (bounded === undefined) return;
      floor = bounded.progress;
      pending = bounded;
      if (timer !== undefined) return;
      const wait = lastWriteAt + interval() - Date.now();
      if (wait <= 0) writePending();
      else {
        timer = setTimeout(writePending, wait);
        timer.unref();
      }
    } catch {
      // A report must never break the call that made it.
    }
  };

  return {
    report,
    async finish() {
      finished = true;
      pending = undefined;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      await writing;
    },
  };
}
