import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli, writeScript } from './cli-harness.js';

// Many `clawsmith run` processes on one fresh home: opening, migrations and every write wait
// for each other instead of failing, and every turn closes (item 7 of the round-3 probes).
describe('concurrent clawsmith run processes on one home', () => {
  it(
    '24 runs on a fresh home all exit 0, each with its edit applied and its turn closed',
    { timeout: 900_000 },
    async () => {
      const home = testdir();
      const workspace = testdir({ 'seed.txt': 'seed\n' });
      const runs = await Promise.all(
        Array.from({ length: 24 }, (_, index) => {
          const script = writeScript(
            home,
            [
              {
                toolCalls: [{ name: 'write_file', arguments: { path: `out-${index}.txt`, content: `run ${index}\n` } }],
              },
              { text: `done ${index}` },
            ],
            `script-${index}.json`,
          );
          return runCli(
            [
              'run',
              '--json',
              '--permission-mode',
              'accept-edits',
              '--script',
              script,
              '--workspace',
              workspace,
              `write ${index}`,
            ],
            { home },
          );
        }),
      );
      for (const [index, run] of runs.entries()) {
        expect([index, run.code, run.stderr]).toEqual([index, 0, '']);
        const events = parseJsonLines(run.stdout);
        expect(events.some((event) => event.type === 'turn.completed')).toBe(true);
      }
    },
  );
});
