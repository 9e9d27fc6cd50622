import { CliError } from '../cli-errors.js';
import { EXIT_CODES } from '../exit-codes.js';

/** `--context-window`, `--max-turn-tokens` and `--max-session-tokens` as commander gives them. */
export interface ContextChoice {
  readonly contextWindow?: string;
  readonly maxTurnTokens?: string;
  readonly maxSessionTokens?: string;
}

/** What core gets from them. */
export interface ContextSettings {
  readonly contextWindow?: number;
  readonly maxTurnTokens?: number;
  readonly maxSessionTokens?: number;
}

function tokens(flag: string, value: string | undefined, least: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim().replace(/[_,]/g, '');
  if (!/^\d+$/.test(text) || Number(text) < least || !Number.isSafeInteger(Number(text)))
    throw new CliError(
      'invalid_token_option',
      `${flag} takes a whole number of tokens, at least ${least.toLocaleString('en-US')}, not ${JSON.stringify(value)}.`,
      EXIT_CODES.usage,
    );
  return Number(text);
}

/** Parses the three token options; anything but a whole number is `invalid_token_option` (exit 2). */
export function selectContext(choice: ContextChoice): ContextSettings {
  const contextWindow = tokens('--context-window', choice.contextWindow, 1_024);
  const maxTurnTokens = tokens('--max-turn-tokens', choice.maxTurnTokens, 1);
  const maxSessionTokens = tokens('--max-session-tokens', choice.maxSessionTokens, 1);
  return {
    ...(contextWindow !== undefined ? { contextWindow } : {}),
    ...(maxTurnTokens !== undefined ? { maxTurnTokens } : {}),
    ...(maxSessionTokens !== undefined ? { maxSessionTokens } : {}),
  };
}
