import type { Diagnostic } from 'vscode-languageserver-protocol';
import { DiagnosticSeverity } from './protocol-values.js';

/** A diagnostic with the workspace-relative path of its file. */
export interface FileDiagnostic {
  readonly path: string;
  readonly diagnostic: Diagnostic;
}

const SEVERITY_NAMES: Readonly<Record<number, string>> = {
  [DiagnosticSeverity.Error]: 'error',
  [DiagnosticSeverity.Warning]: 'warning',
  [DiagnosticSeverity.Information]: 'info',
  [DiagnosticSeverity.Hint]: 'hint',
};

const MAX_MESSAGE = 500;

function severityOf(diagnostic: Diagnostic): number {
  return diagnostic.severity ?? DiagnosticSeverity.Error;
}

function countBySeverity(items: readonly FileDiagnostic[]): string {
  const counts = new Map<number, number>();
  for (const item of items) counts.set(severityOf(item.diagnostic), (counts.get(severityOf(item.diagnostic)) ?? 0) + 1);
  return [...counts.entries()]
    .sort((left, right) => left[0] - right[0])
    .map(([severity, count]) => `${count} ${SEVERITY_NAMES[severity] ?? 'other'}${count === 1 ? '' : 's'}`)
    .join(', ');
}

/** One diagnostic as a line: `path:line:column severity [source code] message`, positions 1-based. */
export function formatDiagnostic(item: FileDiagnostic): string {
  const { diagnostic } = item;
  const start = diagnostic.range.start;
  const code =
    diagnostic.code === undefined ? '' : ` ${diagnostic.source === 'typescript' ? 'TS' : ''}${diagnostic.code}`;
  const source = diagnostic.source && diagnostic.source !== 'typescript' ? ` (${diagnostic.source})` : '';
  let message = (typeof diagnostic.message === 'string' ? diagnostic.message : diagnostic.message.value).replace(
    /\s*\n\s*/g,
    ' / ',
  );
  if (message.length > MAX_MESSAGE) message = `${message.slice(0, MAX_MESSAGE)}…`;
  return `${item.path}:${start.line + 1}:${start.character + 1} ${SEVERITY_NAMES[severityOf(diagnostic)] ?? 'error'}${code}${source}: ${message}`;
}

/**
 * Diagnostics of several files as text: errors first (then warnings, information, hints), then by
 * path and position; at most `limit` listed, and the rest counted by severity.
 */
export function formatDiagnostics(
  items: readonly FileDiagnostic[],
  checkedPaths: readonly string[],
  limit: number,
): string {
  if (items.length === 0) {
    return `No diagnostics in ${checkedPaths.join(', ')}.`;
  }
  const sorted = [...items].sort(
    (left, right) =>
      severityOf(left.diagnostic) - severityOf(right.diagnostic) ||
      left.path.localeCompare(right.path) ||
      left.diagnostic.range.start.line - right.diagnostic.range.start.line ||
      left.diagnostic.range.start.character - right.diagnostic.range.start.character,
  );
  const shown = sorted.slice(0, limit);
  const rest = sorted.slice(limit);
  const files = new Set(items.map((item) => item.path)).size;
  const lines = [
    `${countBySeverity(items)} in ${files} file${files === 1 ? '' : 's'} (checked: ${checkedPaths.join(', ')}).`,
  ];
  for (const item of shown) lines.push(formatDiagnostic(item));
  if (rest.length > 0) {
    lines.push(
      `… ${rest.length} more not shown (${countBySeverity(rest)}); the first ${limit} are listed, errors first. Fix these or ask about one file.`,
    );
  }
  return lines.join('\n');
}
