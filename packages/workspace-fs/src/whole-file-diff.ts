import { boundText } from '@clawsmith/tool-protocol';
import { countLines } from './text-lines.js';

/**
 * The unified diff of a whole file appearing (`created`) or going away (`deleted`), headed with
 * `/dev/null` on the missing side as git writes it. Its `+`/`-` lines are exactly the file's lines
 * (a trailing newline adds none), so it counts lines as the checkpoint manifest does.
 */
export function wholeFileDiff(path: string, text: string, change: 'created' | 'deleted', limit = 16_000): string {
  const created = change === 'created';
  const header = created ? `--- /dev/null\n+++ b/${path}\n` : `--- a/${path}\n+++ /dev/null\n`;
  const count = countLines(text);
  if (count === 0) return header;
  const sign = created ? '+' : '-';
  const lines = (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
  const hunk = created ? `@@ -0,0 +1,${count} @@\n` : `@@ -1,${count} +0,0 @@\n`;
  const body = lines.map((line) => `${sign}${line}\n`).join('');
  const noNewline = text.endsWith('\n') ? '' : '\\ No newline at end of file\n';
  return boundText(header + hunk + body + noNewline, limit);
}
