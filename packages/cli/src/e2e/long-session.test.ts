// Done means for a session longer than the model's context window: `clawsmith run --json` (a
// child process) against a local server with a 64,000-token window that counts tokens with a
// real tokenizer and refuses an oversized request with the vendor's 400, through 14 reads of
// 40 KB files and a summary written at the end.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { parseJsonLines, runCli } from './cli-harness.js';
import { startWindowedModelServer, type ModelStep } from '@clawsmith/test-utils/model-servers';

const WORDS = ['alpha', 'river', 'copper', 'lantern', 'meadow', 'signal', 'harbor', 'quartz', 'ember', 'violet'];

/** About 40 KB of distinct text per file. */
function fileText(file: number): string {
  const lines: string[] = [];
  for (let line = 0; Buffer.byteLength(lines.join('\n')) < 40_000; line += 1)
    lines.push(
      `file ${file} line ${line}: ${Array.from({ length: 9 }, (_, word) => WORDS[(file * 7 + line * 3 + word * word) % WORDS.length]).join(' ')} value=${(file * 1_000 + line) * 37}`,
    );
  return `${lines.join('\n')}\n`;
}

const FILES = Object.fromEntries(
  Array.from({ length: 14 }, (_, index) => [`notes-${index + 1}.txt`, fileText(index + 1)]),
);
const STEPS: ModelStep[] = [
  ...Object.keys(FILES).map((path) => ({ calls: [{ name: 'read_file', arguments: { path } }] })),
  {
    calls: [
      {
        name: 'write_file',
        arguments: { path: 'summary.md', content: '# Summary\n\nAll 14 notes files were read.\n' },
      },
    ],
  },
  { text: 'Wrote summary.md.' },
];
const LONG_TIMEOUT = 300_000;

describe.each(['openai', 'anthropic'] as const)('a session longer than the window over the %s API', (format) => {
  it(
    'reads 14 files of 40 KB one per step and writes the summary in a 64,000-token window',
    async () => {
      const server = await startWindowedModelServer(format, STEPS, 64_000);
      onTestFinished(() => server.close());
      const home = testdir();
      const workspace = testdir(FILES);
      const run = await runCli(
        [
          'run',
          '--json',
          '--provider',
          format,
          '--model',
          'local-model',
          '--context-window',
          '64000',
          '--permission-mode',
          'full-auto',
          '--workspace',
          workspace,
          'Read every notes file, then write summary.md.',
        ],
        {
          home,
          env: format === 'openai' ? { OPENAI_BASE_URL: server.baseURL } : { ANTHROPIC_BASE_URL: server.baseURL },
        },
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(readFileSync(join(workspace, 'summary.md'), 'utf8')).toContain('All 14 notes files were read.');
      const events = parseJsonLines(run.stdout);
      const completed = events.filter((event) => event.type === 'tool.completed');
      expect(completed.map((event) => [event.toolName, (event.result as { status: string }).status])).toEqual([
        ...Array.from({ length: 14 }, () => ['read_file', 'success']),
        ['write_file', 'success'],
      ]);
      // The persisted events still hold every result in full, whatever the model was later shown.
      for (const [index, event] of completed.slice(0, 14).entries())
        expect(String(event.output)).toContain(`file ${index + 1} line 0:`);
      expect(events.at(-1)).toMatchObject({ type: 'turn.completed', status: 'completed' });
      expect(server.requests.filter((request) => request.rejected).length).toBeLessThanOrEqual(1);
      expect(Math.max(...server.requests.map((request) => request.tokens))).toBeGreaterThan(0);
      const compactions = events.filter((event) => event.type === 'context.compacted');
      expect(compactions.length).toBeGreaterThan(0);
      expect(compactions[0]).toMatchObject({ contextWindow: 64_000 });
      // The model can read a pruned result again: its stub names an artifact.
      const lastBody = JSON.stringify(server.requests.at(-1)!.body);
      expect(lastBody).toMatch(/removed from the context to save space\. Its full text is artifact art_[0-9a-f]{32}/);
      // Every request and the turn report their tokens.
      const usage = events.filter((event) => event.type === 'request.completed').map((event) => event.usage);
      expect(usage.every((entry) => (entry as { inputTokens: number }).inputTokens > 0)).toBe(true);
      const turn = events.at(-1) as { usage: { inputTokens: number } };
      expect(turn.usage.inputTokens).toBe(
        usage.reduce((sum: number, entry) => sum + (entry as { inputTokens: number }).inputTokens, 0),
      );
      if (format === 'anthropic') {
        const reads = usage
          .slice(1)
          .reduce((sum: number, entry) => sum + ((entry as { cacheReadTokens?: number }).cacheReadTokens ?? 0), 0);
        expect(reads).toBeGreaterThan(0);
      }
    },
    LONG_TIMEOUT,
  );
});
