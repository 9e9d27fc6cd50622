import { oneLine } from './terminal-text.js';

function amount(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/**
 * A `tool.progress` event as the running call's line shows it: `3/10 · copying files`, or just
 * `3` when the total is unknown. The message is the tool's own text: flattened to one line,
 * sanitised and cut. `undefined` when the event has no number.
 */
export function progressText(event: {
  readonly progress: number;
  readonly total?: number | undefined;
  readonly message?: string | undefined;
}): string | undefined {
  const { progress, total, message } = event;
  if (!Number.isFinite(progress)) return undefined;
  const counted =
    total !== undefined && Number.isFinite(total) && total > 0
      ? `${amount(progress)}/${amount(total)}`
      : amount(progress);
  const said = message !== undefined ? oneLine(message, 60) : '';
  return said ? `${counted} · ${said}` : counted;
}
