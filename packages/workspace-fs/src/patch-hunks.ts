import type { Hunk } from './unified-diff.js';

/** A hunk that does not match the file. */
export interface HunkConflict {
  readonly hunk: string;
  /** The 1-based line where the hunk was expected. */
  readonly line: number;
  /** The first line that differs there, as the patch expects it and as the file holds it. */
  readonly expected?: string;
  readonly found?: string;
}

/** The lines of `text`, each with its `\n` (the last may have none). */
export function linesOf(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function sides(hunk: Hunk): { before: string[]; after: string[] } {
  const before: string[] = [];
  const after: string[] = [];
  for (const line of hunk.lines) {
    const text = line.noNewline ? line.text : `${line.text}\n`;
    if (line.kind !== '+') before.push(text);
    if (line.kind !== '-') after.push(text);
  }
  return { before, after };
}

function matchesAt(lines: readonly string[], before: readonly string[], at: number): boolean {
  if (at < 0 || at + before.length > lines.length) return false;
  return before.every((line, offset) => lines[at + offset] === line);
}

/** Where `before` matches: at `expected`, else the nearest exact match at or after `from`. */
function locate(lines: readonly string[], before: readonly string[], expected: number, from: number): number {
  // A pure insertion has no lines to check: only its stated place will do.
  if (before.length === 0) return expected >= from && expected <= lines.length ? expected : -1;
  const last = lines.length - before.length;
  for (let distance = 0; expected - distance >= from || expected + distance <= last; distance += 1) {
    if (expected - distance >= from && matchesAt(lines, before, expected - distance)) return expected - distance;
    if (distance > 0 && expected + distance <= last && matchesAt(lines, before, expected + distance))
      return expected + distance;
  }
  return -1;
}

function visible(line: string | undefined): string | undefined {
  if (line === undefined) return '(end of file)';
  return line.endsWith('\n') ? line.slice(0, -1) : `${line} (no newline at end of file)`;
}

/**
 * Applies `hunks` to `text` exactly: every context and removed line must match, character for
 * character; a hunk may be found some lines away from its stated place (as `git apply` does
 * without fuzz), never before the end of the previous hunk. Returns the new text, or the hunks
 * that do not match (and then nothing is applied).
 */
export function applyHunks(
  text: string,
  hunks: readonly Hunk[],
): { ok: true; text: string } | { ok: false; conflicts: HunkConflict[] } {
  const lines = linesOf(text);
  const output: string[] = [];
  const conflicts: HunkConflict[] = [];
  let cursor = 0;
  let shift = 0;
  for (const hunk of hunks) {
    const { before, after } = sides(hunk);
    const stated = (hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1) + shift;
    const at = locate(lines, before, Math.max(stated, cursor), cursor);
    if (at < 0) {
      const place = Math.min(Math.max(stated, cursor), lines.length);
      const differs = before.findIndex((line, offset) => lines[place + offset] !== line);
      conflicts.push({
        hunk: hunk.header,
        line: place + 1,
        ...(differs >= 0 ? { expected: visible(before[differs]), found: visible(lines[place + differs]) } : {}),
      });
      continue;
    }
    output.push(...lines.slice(cursor, at), ...after);
    shift = at - (hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1);
    cursor = at + before.length;
  }
  if (conflicts.length > 0) return { ok: false, conflicts };
  output.push(...lines.slice(cursor));
  return { ok: true, text: output.join('') };
}
