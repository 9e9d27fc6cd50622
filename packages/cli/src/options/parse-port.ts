import { CliError } from '../cli-errors.js';
import { EXIT_CODES } from '../exit-codes.js';

/** `--port`'s value as a TCP port; `0` asks the system for a free one. */
export function parsePort(text: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65_535)
    throw new CliError(
      'invalid_port',
      `--port must be a number from 0 to 65535 (0 picks a free port), not ${text}.`,
      EXIT_CODES.usage,
    );
  return Number(text);
}
