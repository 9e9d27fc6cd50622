// The one line a collapsed tool card shows after its name and status: how much the call
// produced and how long it took.
import type { TranscriptItem } from './transcript-items';
import { wholeNumber } from '../display/whole-number';

type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;

const count = wholeNumber;
// Shared: one per call was measurable when a page of cards renders.
const UTF8 = new TextEncoder();

/** `512 B`, `1.5 KB`, `2.0 MB` (1 KB = 1,024 bytes). */
export function byteSize(bytes: number): string {
  if (bytes < 1024) return `${count(bytes)} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function lineCount(text: string): number {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

/**
 * How much a finished call produced: the kept artifact's lines and bytes when its output went to
 * one, else the output's; `undefined` while the call runs.
 */
export function toolSize(item: ToolItem): string | undefined {
  if (!item.result) return undefined;
  const artifact = item.result.artifact;
  const lines = artifact ? artifact.lineCount : lineCount(item.output);
  const bytes = artifact ? artifact.byteLength : UTF8.encode(item.output).length;
  if (bytes === 0) return 'no output';
  return `${count(lines)} line${lines === 1 ? '' : 's'} · ${byteSize(bytes)}`;
}

/** `850 ms`, `3.2 s`, `2 min 5 s`. */
export function duration(milliseconds: number): string {
  if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`;
  if (milliseconds < 60_000) return `${(milliseconds / 1000).toFixed(1)} s`;
  const seconds = Math.round(milliseconds / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** How long a finished call took: the process's own duration when it ran one, else from its events' times. */
export function toolDuration(item: ToolItem): string | undefined {
  if (!item.result) return undefined;
  if (item.result.durationMs !== undefined) return duration(item.result.durationMs);
  if (item.completedAt === undefined) return undefined;
  const elapsed = Date.parse(item.completedAt) - Date.parse(item.startedAt);
  return Number.isFinite(elapsed) && elapsed >= 0 ? duration(elapsed) : undefined;
}
