/** A line that holds a match: 1-based line number and a short preview around the match. */
export interface LineMatch {
  readonly line: number;
  readonly preview: string;
}

const PREVIEW_BEFORE = 80;
const PREVIEW_AFTER = 120;

function previewOf(line: string, column: number): string {
  const start = Math.max(0, column - PREVIEW_BEFORE);
  const end = Math.min(line.length, column + PREVIEW_AFTER);
  return `${start > 0 ? '…' : ''}${line.slice(start, end).trim()}${end < line.length ? '…' : ''}`;
}

function countNewlines(bytes: Uint8Array, from: number, to: number): number {
  let count = 0;
  let index = bytes.indexOf(10, from);
  while (index >= 0 && index < to) {
    count += 1;
    index = bytes.indexOf(10, index + 1);
  }
  return count;
}

/**
 * The lines of `bytes` that contain `needle` byte for byte, at most `limit` of them. Works on
 * the raw bytes, so a file without a match is never decoded; only matching lines are.
 */
export function matchLiteralBytes(bytes: Buffer, needle: Buffer, limit: number): LineMatch[] {
  const matches: LineMatch[] = [];
  let line = 1;
  let counted = 0;
  let position = bytes.indexOf(needle, 0);
  while (position >= 0 && matches.length < limit) {
    line += countNewlines(bytes, counted, position);
    const lineStart = bytes.lastIndexOf(10, position) + 1;
    let lineEnd = bytes.indexOf(10, position);
    if (lineEnd < 0) lineEnd = bytes.length;
    // Decode only a window around the match: a 1 MiB single-line file stays cheap.
    const windowStart = Math.max(lineStart, position - PREVIEW_BEFORE * 4);
    const windowEnd = Math.min(lineEnd, position + needle.length + PREVIEW_AFTER * 4);
    const before = bytes.toString('utf8', windowStart, position);
    const text = before + bytes.toString('utf8', position, windowEnd);
    matches.push({ line, preview: previewOf(text, before.length) });
    if (lineEnd >= bytes.length) break;
    line += 1;
    counted = lineEnd + 1;
    position = bytes.indexOf(needle, lineEnd + 1);
  }
  return matches;
}

/** Escapes `text` for use as a literal inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/**
 * The lines of `text` that `pattern` (a global regular expression built from an escaped
 * literal, so it cannot backtrack badly) matches, at most `limit`.
 */
export function matchLiteralText(text: string, pattern: RegExp, limit: number): LineMatch[] {
  const matches: LineMatch[] = [];
  let line = 1;
  let counted = 0;
  pattern.lastIndex = 0;
  let match = pattern.exec(text);
  while (match && matches.length < limit) {
    let newline = text.indexOf('\n', counted);
    while (newline >= 0 && newline < match.index) {
      line += 1;
      newline = text.indexOf('\n', newline + 1);
    }
    const lineStart = text.lastIndexOf('\n', match.index) + 1;
    const lineEnd = newline < 0 ? text.length : newline;
    matches.push({ line, preview: previewOf(text.slice(lineStart, lineEnd), match.index - lineStart) });
    if (lineEnd >= text.length) break;
    line += 1;
    counted = lineEnd + 1;
    pattern.lastIndex = lineEnd + 1;
    match = pattern.exec(text);
  }
  return matches;
}
