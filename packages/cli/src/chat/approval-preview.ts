import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { TerminalStyle } from '../terminal/terminal-style.js';
import { terminalSafe } from '../terminal/terminal-text.js';

/** Bounds of what an approval prompt shows, so a huge edit cannot flood the terminal. */
export const PREVIEW_LIMITS = Object.freeze({
  /** Changed lines (removed plus added) shown for an edit. */
  diffLines: 40,
  /** First lines of a new file shown for write_file. */
  newFileLines: 12,
  /** Lines of a command shown. */
  commandLines: 10,
  /** Characters of one shown line. */
  lineWidth: 200,
  /** Files larger than this are not read to place an edit (the edit is shown without line numbers). */
  readBytes: 4 * 1024 * 1024,
  /** Unchanged lines shown around an edit. */
  contextLines: 2,
});

/** What of an approval request the preview reads. */
export interface PreviewRequest {
  readonly toolName: string;
  readonly input: unknown;
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function cut(line: string): string {
  const safe = terminalSafe(line).replace(/\n/g, ' ');
  return safe.length > PREVIEW_LIMITS.lineWidth ? `${safe.slice(0, PREVIEW_LIMITS.lineWidth - 1)}…` : safe;
}

/** A workspace file's text for display, or undefined (outside the workspace, missing, too large, binary). */
function readWorkspaceText(workspaceRoot: string, path: string): string | undefined {
  const absolute = resolve(workspaceRoot, path);
  const inside = relative(workspaceRoot, absolute);
  if (inside.startsWith('..') || isAbsolute(inside)) return undefined;
  try {
    if (statSync(absolute).size > PREVIEW_LIMITS.readBytes) return undefined;
    const body = readFileSync(absolute, 'utf8');
    return body.includes('\u0000') ? undefined : body;
  } catch {
    return undefined;
  }
}

function linesOf(value: string): string[] {
  const lines = value.split('\n');
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines;
}

/** The proposed edit as a unified-diff hunk: where it lands in the file as it is now, with context. */
function editPreview(input: Record<string, unknown>, workspaceRoot: string, style: TerminalStyle): string[] {
  const path = text(input.path) ?? '';
  const oldText = text(input.oldText) ?? '';
  const newText = text(input.newText) ?? '';
  const file = readWorkspaceText(workspaceRoot, path);
  const at = file === undefined || oldText === '' ? -1 : file.indexOf(oldText);
  // Whole lines around the replaced text, so the hunk shows what the lines become.
  const lineStart = at < 0 ? 0 : file!.lastIndexOf('\n', at - 1) + 1;
  const endIndex = at < 0 ? -1 : file!.indexOf('\n', at + oldText.length);
  const lineEnd = at < 0 ? 0 : endIndex < 0 ? file!.length : endIndex;
  const before = at < 0 ? oldText : file!.slice(lineStart, lineEnd);
  const after =
    at < 0 ? newText : `${file!.slice(lineStart, at)}${newText}${file!.slice(at + oldText.length, lineEnd)}`;
  const oldLines = linesOf(before);
  const newLines = linesOf(after);
  // Lines the edit leaves alone at either end are context, not change.
  let head = 0;
  while (head < oldLines.length - 1 && head < newLines.length - 1 && oldLines[head] === newLines[head]) head += 1;
  let tail = 0;
  while (
    tail < oldLines.length - head - 1 &&
    tail < newLines.length - head - 1 &&
    oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]
  )
    tail += 1;
  const firstLine = at < 0 ? undefined : file!.slice(0, lineStart).split('\n').length + head;
  const removed = oldLines.slice(head, oldLines.length - tail);
  const added = newLines.slice(head, newLines.length - tail);
  const fileLines = file === undefined ? [] : linesOf(file);
  const contextBefore =
    firstLine === undefined
      ? []
      : fileLines.slice(Math.max(0, firstLine - 1 - PREVIEW_LIMITS.contextLines), firstLine - 1);
  const contextAfter =
    firstLine === undefined
      ? []
      : fileLines.slice(firstLine - 1 + removed.length, firstLine - 1 + removed.length + PREVIEW_LIMITS.contextLines);
  const out = [
    style.dim(`--- ${cut(path)}`),
    style.dim(`+++ ${cut(path)}`),
    firstLine === undefined
      ? style.yellow('@@ (the text to replace is not in the file as it is now; the edit will fail) @@')
      : style.cyan(
          `@@ -${firstLine - contextBefore.length},${contextBefore.length + removed.length + contextAfter.length} +${firstLine - contextBefore.length},${contextBefore.length + added.length + contextAfter.length} @@`,
        ),
    ...contextBefore.map((line) => ` ${cut(line)}`),
  ];
  const changed = [
    ...removed.map((line) => style.red(`-${cut(line)}`)),
    ...added.map((line) => style.green(`+${cut(line)}`)),
  ];
  out.push(...changed.slice(0, PREVIEW_LIMITS.diffLines));
  if (changed.length > PREVIEW_LIMITS.diffLines)
    out.push(style.dim(`… ${changed.length - PREVIEW_LIMITS.diffLines} more changed line(s)`));
  else out.push(...contextAfter.map((line) => ` ${cut(line)}`));
  return out;
}

function writePreview(input: Record<string, unknown>, workspaceRoot: string, style: TerminalStyle): string[] {
  const path = text(input.path) ?? '';
  const content = text(input.content) ?? '';
  const lines = content === '' ? [] : linesOf(content);
  const existing = readWorkspaceText(workspaceRoot, path) !== undefined;
  const out = [
    style.dim(
      `${existing ? 'replaces' : 'new file'} ${cut(path)}: ${lines.length} line(s), ${Buffer.byteLength(content)} byte(s)`,
    ),
    ...lines.slice(0, PREVIEW_LIMITS.newFileLines).map((line) => style.green(`+${cut(line)}`)),
  ];
  if (lines.length > PREVIEW_LIMITS.newFileLines)
    out.push(style.dim(`… ${lines.length - PREVIEW_LIMITS.newFileLines} more line(s)`));
  return out;
}

function commandPreview(input: Record<string, unknown>, workspaceRoot: string, style: TerminalStyle): string[] {
  const lines = linesOf(text(input.command) ?? '');
  const out = lines
    .slice(0, PREVIEW_LIMITS.commandLines)
    .map((line, index) => `${index === 0 ? '$' : '>'} ${cut(line)}`);
  if (lines.length > PREVIEW_LIMITS.commandLines)
    out.push(style.dim(`… ${lines.length - PREVIEW_LIMITS.commandLines} more line(s)`));
  const cwd = text(input.cwd);
  const timeout = typeof input.timeoutSeconds === 'number' ? ` · timeout ${input.timeoutSeconds}s` : '';
  out.push(style.dim(`in ${cut(cwd ? join(workspaceRoot, cwd) : workspaceRoot)}${timeout}`));
  return out;
}

/**
 * The lines an approval prompt shows under its summary so the person sees the change before
 * allowing it: the diff of a proposed `edit_file` against the file as it is now, the first lines
 * of a `write_file`, the command and working folder of `run_command`/`start_command`. Every line
 * is sanitised (terminal escapes removed) and cut; the whole is bounded by {@link PREVIEW_LIMITS}.
 * Other tools get no preview (an empty list).
 */
export function approvalPreview(request: PreviewRequest, workspaceRoot: string, style: TerminalStyle): string[] {
  const input = record(request.input);
  switch (request.toolName) {
    case 'edit_file':
      return editPreview(input, workspaceRoot, style);
    case 'write_file':
      return writePreview(input, workspaceRoot, style);
    case 'run_command':
    case 'start_command':
      return commandPreview(input, workspaceRoot, style);
    default:
      return [];
  }
}
