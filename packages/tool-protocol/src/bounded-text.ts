/**
 * Cuts `text` to at most `limit` characters, keeping the head and saying that it was cut and how
 * long the whole was. The marker counts against the limit, so the result never exceeds `limit`.
 */
export function boundText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const marker = `… [cut: ${text.length} characters in all]`;
  if (limit <= marker.length) return text.slice(0, Math.max(0, limit));
  return `${text.slice(0, limit - marker.length)}${marker}`;
}

/**
 * Keeps the head and tail of `text` within `limit` characters, with a marker in the middle that
 * says the middle was left out.
 */
export function headAndTail(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const marker = `\n… [${text.length} characters in all; the middle was left out] …\n`;
  if (limit <= marker.length + 2) return boundText(text, limit);
  const room = limit - marker.length;
  const head = Math.ceil(room / 2);
  const tail = room - head;
  return `${text.slice(0, head)}${marker}${tail > 0 ? text.slice(text.length - tail) : ''}`;
}
