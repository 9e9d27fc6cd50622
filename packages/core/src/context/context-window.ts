/** Where a context window came from. */
export type ContextWindowSource = 'option' | 'environment' | 'provider' | 'model-table' | 'default';

/** The context window core plans requests against. */
export interface ContextWindow {
  /** Tokens the model reads and writes in one request. */
  readonly tokens: number;
  /** Tokens kept free for the model's answer. */
  readonly outputReserve: number;
  /** How it was known. */
  readonly source: ContextWindowSource;
}

/** The window assumed for a model nobody named: small enough for common local servers. */
export const DEFAULT_CONTEXT_WINDOW = 32_768;

/** The environment variable that sets the window for any model. */
export const CONTEXT_WINDOW_VARIABLE = 'CLAWSMITH_CONTEXT_WINDOW';

// Well-known families, first match wins; the figures are the vendors' published input windows.
const MODEL_WINDOWS: readonly (readonly [RegExp, number])[] = [
  [/^(?:anthropic\/)?claude-/i, 200_000],
  [/^(?:openai\/)?gpt-4\.1/i, 1_047_576],
  [/^(?:openai\/)?gpt-5/i, 400_000],
  [/^(?:openai\/)?(?:gpt-4o|o[134](?:-|$))/i, 128_000],
  [/^(?:openai\/)?gpt-4-turbo/i, 128_000],
  [/^(?:openai\/)?gpt-4(?:-|$)/i, 8_192],
  [/^(?:openai\/)?gpt-3\.5/i, 16_385],
  [/qwen3|qwen2\.5/i, 32_768],
  [/llama-?3\.[123]|llama3\.[123]/i, 128_000],
  [/mistral|mixtral|codestral/i, 32_768],
  [/gemma-?3/i, 128_000],
  [/deepseek/i, 128_000],
];

/** The window of a well-known model family, or `undefined`. */
export function knownContextWindow(model: string): number | undefined {
  return MODEL_WINDOWS.find(([pattern]) => pattern.test(model))?.[1];
}

function parseWindow(value: string | number, what: string): number {
  const tokens = typeof value === 'number' ? value : Number(value.replace(/[_,]/g, ''));
  if (!Number.isSafeInteger(tokens) || tokens < 1_024)
    throw new RangeError(`${what} must be a whole number of tokens, at least 1024; got ${JSON.stringify(value)}.`);
  return tokens;
}

/**
 * The window for `model`: the option, else `CLAWSMITH_CONTEXT_WINDOW`, else the provider's own
 * (`Provider.contextWindow`, e.g. a scripted model's unlimited one), else the family table,
 * else {@link DEFAULT_CONTEXT_WINDOW}. The output reserve is a quarter of the window, at most 8,192.
 */
export function resolveContextWindow(
  model: string,
  option?: number,
  environment: Readonly<Record<string, string | undefined>> = process.env,
  providerWindow?: number,
): ContextWindow {
  const fromEnvironment = environment[CONTEXT_WINDOW_VARIABLE];
  let tokens: number;
  let source: ContextWindowSource;
  if (option !== undefined) [tokens, source] = [parseWindow(option, 'contextWindow'), 'option'];
  else if (fromEnvironment) [tokens, source] = [parseWindow(fromEnvironment, CONTEXT_WINDOW_VARIABLE), 'environment'];
  else if (providerWindow !== undefined) [tokens, source] = [providerWindow, 'provider'];
  else {
    const known = knownContextWindow(model);
    [tokens, source] = known === undefined ? [DEFAULT_CONTEXT_WINDOW, 'default'] : [known, 'model-table'];
  }
  return { tokens, outputReserve: Math.min(8_192, Math.floor(tokens / 4)), source };
}
