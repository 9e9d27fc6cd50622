/** Longest tool name this package accepts anywhere (activation, catalog). */
export const MAX_TOOL_NAME_LENGTH = 256;

/**
 * Why `value` cannot be a tool name, or undefined when it can: a non-empty string of at most
 * {@link MAX_TOOL_NAME_LENGTH} characters with no control characters.
 */
export function toolNameProblem(value: unknown): string | undefined {
  if (typeof value !== 'string')
    return `a ${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value} instead of a tool name`;
  if (value.length === 0) return 'an empty tool name';
  if (value.length > MAX_TOOL_NAME_LENGTH)
    return `a tool name of ${value.length} characters (at most ${MAX_TOOL_NAME_LENGTH})`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(value)) return 'a tool name with control characters';
  return undefined;
}

/** A tool name as it may appear inside a message: bounded, quoted, escaped. */
export function quoteName(value: unknown): string {
  const text = typeof value === 'string' ? value : String(value);
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}
