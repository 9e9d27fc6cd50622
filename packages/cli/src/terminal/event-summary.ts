import type { SessionEvent, SessionEventOf, ToolResultRecord } from '@clawsmith/session-protocol';
import type { TerminalStyle } from './terminal-style.js';
import { oneLine, terminalSafe } from './terminal-text.js';

const STATUS_MARKS: Record<string, string> = { success: '✓', error: '✗', denied: '⊘', cancelled: '◌', unknown: '?' };
const BODY_LINES = 12;
// Bodies worth seeing in a transcript: a command's output tail, a diff, an artifact excerpt. A
// read_file body is the file itself and would drown the transcript.
const BODY_KINDS = new Set(['command', 'diff', 'artifact']);

/** The last `count` lines of `body`, sanitised and indented, with a note of how many were left out. */
export function indentedTail(body: string, style: TerminalStyle, count = BODY_LINES): string {
  const lines = terminalSafe(body).replace(/\n+$/, '').split('\n');
  const shown = lines.slice(-count).map((line) => `    ${style.dim('│')} ${line}`);
  if (lines.length > count) shown.unshift(`    ${style.dim(`│ … ${lines.length - count} earlier line(s)`)}`);
  return shown.join('\n');
}

function seconds(durationMs: number): string {
  return durationMs < 1_000 ? `${Math.round(durationMs)} ms` : `${(durationMs / 1_000).toFixed(1)} s`;
}

/** A command's outcome in words: `exit 3 · 12 ms`, `timed out after 2.0 s`, `cancelled after 1.1 s`. */
export function commandOutcome(result: ToolResultRecord): string | undefined {
  const { exitCode, durationMs } = result;
  if (exitCode === undefined && durationMs === undefined) return undefined;
  const took = durationMs === undefined ? '' : seconds(durationMs);
  if (result.code === 'command_timeout') return `timed out${took ? ` after ${took}` : ''}`;
  if (result.status === 'cancelled') return `cancelled${took ? ` after ${took}` : ''}`;
  const parts = [exitCode === undefined ? 'killed' : `exit ${exitCode}`];
  if (took) parts.push(took);
  return parts.join(' · ');
}

function statusColor(status: string, style: TerminalStyle): (value: string) => string {
  if (status === 'success') return style.green;
  if (status === 'denied' || status === 'error') return style.red;
  return style.yellow;
}

function completedLines(event: SessionEventOf<'tool.completed'>, style: TerminalStyle): string {
  const { result } = event;
  const { status, code, display } = result;
  const title = display?.title ?? '';
  const mark = statusColor(status, style)(`${STATUS_MARKS[status] ?? '?'} ${status}${code ? ` (${code})` : ''}`);
  const outcome = commandOutcome(result);
  const lines = [
    `  ${mark} ${style.bold(oneLine(event.toolName, 40))}${title ? ` ${oneLine(title, 100)}` : ''}${outcome ? ` ${style.dim('·')} ${outcome}` : ''}`,
  ];
  const artifact = result.artifact ?? event.artifact;
  if (artifact) {
    lines.push(
      `    ${style.dim(`output kept as artifact ${oneLine(artifact.id, 60)} (${artifact.byteLength} bytes, ${artifact.lineCount} lines)`)}`,
    );
  }
  // read_artifact shows no body of its own: its excerpt is the output the model read.
  const body = display?.body || (display?.kind === 'artifact' ? event.output : '');
  // A failed command's output is what a person needs to see, as much as a passing one's.
  const showBody = status === 'success' || display?.kind === 'command';
  if (showBody && body && display && BODY_KINDS.has(display.kind)) lines.push(indentedTail(body, style));
  else if (status !== 'success') lines.push(`    ${style.dim(oneLine(event.output, 200))}`);
  return lines.join('\n');
}

/**
 * One event as the transcript shows it, or `undefined` for events a person does not need to see
 * (request bookkeeping). Tool calls get one line each with status and code; command output,
 * diffs and artifact excerpts get a bounded, sanitised tail below. Everything from a tool or a model is sanitised.
 */
export function summarizeEvent(event: SessionEvent, style: TerminalStyle): string | undefined {
  switch (event.type) {
    case 'tool.started':
      return `  ${style.cyan('▸')} ${style.bold(oneLine(event.toolName, 40))} ${style.dim(oneLine(event.summary, 100))}`;
    case 'tool.completed':
      return completedLines(event, style);
    // A denial is said once, by the call's closing line (`⊘ denied (code) tool` and the reason):
    // the decision that led to it adds nothing a person needs.
    case 'tool.decision':
      return undefined;
    case 'approval.resolved':
      return `  ${style.dim(`approval: ${event.answer}`)}`;
    case 'todos.updated':
      return `  ${style.cyan('☰')} todos: ${event.todos.length} item(s)`;
    case 'request.failed':
      return `  ${style.red('model request failed')}: ${oneLine(event.message, 200)}`;
    case 'context.compacted':
      return `  ${style.dim(compactionLine(event))}`;
    case 'session.recovered':
      return `  ${style.yellow('recovered')} an interrupted turn; check the workspace before continuing`;
    case 'event.unrecognized':
      return `  ${style.dim(`(an event this version cannot show: ${oneLine(event.recordedType, 60)})`)}`;
    default:
      return undefined;
  }
}

/** The one line a compaction gets: what was pruned or summarised, and the tokens before and after. */
export function compactionLine(event: Extract<SessionEvent, { type: 'context.compacted' }>): string {
  const format = (value: number) => value.toLocaleString('en-US');
  const parts = [`${event.prunedToolResults} old tool result(s) pruned`];
  if (event.summary !== undefined) parts.push(`messages 1-${event.summarizedThroughMessage} summarised`);
  return `context compacted (${event.reason}): ${parts.join(', ')}; about ${format(event.tokensBefore)} → ${format(event.tokensAfter)} of ${format(event.contextWindow)} tokens`;
}

/** A todo list as lines: `[x]` completed, `[~]` in progress, `[ ]` pending. */
export function formatTodos(todos: readonly { content: string; status: string }[], style: TerminalStyle): string {
  if (todos.length === 0) return style.dim('(no todos)');
  return todos
    .map((todo) => {
      const mark = todo.status === 'completed' ? '[x]' : todo.status === 'in_progress' ? '[~]' : '[ ]';
      return `  ${mark} ${oneLine(todo.content, 200)}`;
    })
    .join('\n');
}
