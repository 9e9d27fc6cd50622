import type { Writable } from 'node:stream';

/** Colours for one output stream: real escapes only on a terminal that has not opted out. */
export interface TerminalStyle {
  /** Whether colour escapes are written. */
  readonly color: boolean;
  /** Whether the stream is an interactive terminal (spinners, prompts, redraws). */
  readonly interactive: boolean;
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly red: (text: string) => string;
  readonly green: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly cyan: (text: string) => string;
}

const wrap = (enabled: boolean, open: number, close: number) => (text: string) =>
  enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;

/**
 * Chooses colours for `stream`: off when `NO_COLOR` is set to anything non-empty (no-color.org),
 * when `TERM` is `dumb`, or when the stream is not a terminal (piped output stays plain);
 * `FORCE_COLOR` (non-zero) turns them on anyway.
 */
export function terminalStyle(
  stream: Writable & { isTTY?: boolean },
  environment: NodeJS.ProcessEnv = process.env,
): TerminalStyle {
  const interactive = stream.isTTY === true;
  const forced =
    environment.FORCE_COLOR !== undefined && environment.FORCE_COLOR !== '' && environment.FORCE_COLOR !== '0';
  const disabled = (environment.NO_COLOR !== undefined && environment.NO_COLOR !== '') || environment.TERM === 'dumb';
  const color = !disabled && (forced || interactive);
  return {
    color,
    interactive,
    bold: wrap(color, 1, 22),
    dim: wrap(color, 2, 22),
    red: wrap(color, 31, 39),
    green: wrap(color, 32, 39),
    yellow: wrap(color, 33, 39),
    cyan: wrap(color, 36, 39),
  };
}
