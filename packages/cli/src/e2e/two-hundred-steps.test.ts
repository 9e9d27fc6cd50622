// Done means for a long session: 200 scripted tool steps (reads, edits, test runs, commands
// whose output becomes an artifact, searches) over five `clawsmith run` turns of one session,
// against a local OpenAI-format server with a 64,000-token window that counts tokens with a
// real tokenizer and refuses what does not fit. The session never fails for size.
// Why five turns: pruning alone keeps the first two within the window (what is left after each
// compaction grows from about 21k to 44k tokens by the fifth), and only a later turn needs a
// summary; this is the one end-to-end run of a summarizing compaction.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import {
  LONG_SESSION_FILES,
  LONG_SESSION_STEPS_PER_TURN,
  LONG_SESSION_TOOL_STEPS,
  LONG_SESSION_TURNS,
  longSessionCount,
  longSessionStep,
  startWindowedModelServer,
} from '@clawsmith/test-utils/model-servers';
import { describe, expect, it, onTestFinished } from 'vitest';
import { parseJsonLines, runCli } from './cli-harness.js';

const WINDOW = 64_000;
// 205 model requests and 80 sandboxed commands on a shared 2-core machine.
const LONG_TIMEOUT = 600_000;

describe('a 200-step session in a 64,000-token window', () => {
  it(
    'runs every step of five turns to completion, compacting the model view and never the record',
    async () => {
      const server = await startWindowedModelServer('openai', longSessionStep, WINDOW);
      onTestFinished(() => server.close());
      const home = testdir();
      const workspace = testdir({ ...LONG_SESSION_FILES });
      const events: Record<string, unknown>[] = [];
      let sessionId: string | undefined;
      for (let turn = 0; turn < LONG_SESSION_TURNS; turn += 1) {
        const run = await runCli(
          [
            'run',
            '--json',
            '--provider',
            'openai',
            '--model',
            'local-model',
            '--context-window',
            String(WINDOW),
            '--permission-mode',
            'full-auto',
            '--workspace',
            workspace,
            ...(sessionId ? ['--session', sessionId] : []),
            `Part ${turn + 1}: go on with the notes, the counter and the report.`,
          ],
          { home, env: { OPENAI_BASE_URL: server.baseURL } },
        );
        expect(run.stderr).toBe('');
        expect(run.code, `turn ${turn + 1}`).toBe(0);
        const turnEvents = parseJsonLines(run.stdout);
        sessionId ??= String(turnEvents[0]?.sessionId);
        expect(turnEvents.at(-1)).toMatchObject({ type: 'turn.completed', status: 'completed' });
        events.push(...turnEvents);
      }

      const completed = events.filter((event) => event.type === 'tool.completed');
      expect(completed).toHaveLength(LONG_SESSION_TOOL_STEPS);
      expect(completed.filter((event) => (event.result as { status: string }).status !== 'success')).toEqual([]);
      expect(readFileSync(join(workspace, 'src/counter.mjs'), 'utf8')).toBe(
        `export const count = ${longSessionCount(LONG_SESSION_TOOL_STEPS)};\n`,
      );
      // Each report's 80 KB output was kept as an artifact, and every run of the test saw the counter move.
      const commands = completed.filter((event) => event.toolName === 'run_command');
      expect(commands.filter((event) => String(event.output).includes('report line 1999'))).toHaveLength(
        LONG_SESSION_TOOL_STEPS / 5,
      );
      const counts = commands.flatMap((event) => /count is (\d+)/.exec(String(event.output))?.[1] ?? []).map(Number);
      expect(counts).toEqual(Array.from({ length: LONG_SESSION_TOOL_STEPS / 5 }, (_, cycle) => cycle + 1));

      // Nothing was ever sent over the window but at most one estimate the server corrected.
      expect(server.requests.filter((request) => request.rejected).length).toBeLessThanOrEqual(1);
      expect(Math.max(...server.requests.filter((r) => !r.rejected).map((r) => r.tokens))).toBeLessThanOrEqual(WINDOW);
      const compactions = events.filter((event) => event.type === 'context.compacted');
      expect(compactions.length).toBeGreaterThan(1);
      expect(compactions.some((event) => typeof event.summary === 'string')).toBe(true);
      expect(events.filter((event) => event.type === 'request.completed')).toHaveLength(
        LONG_SESSION_TURNS * (LONG_SESSION_STEPS_PER_TURN + 1),
      );
    },
    LONG_TIMEOUT,
  );
});
