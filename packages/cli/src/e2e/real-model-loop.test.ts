// Done means for a real model's session: `clawsmith run --json` (a child process) and
// `clawsmith chat` (in a pseudo-terminal) against a local server that streams like hosted models,
// through the edit-and-test loop: read, run a failing test, edit, re-run (passes), re-read, finish.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn, type IPty } from '@lydell/node-pty';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BIN, childEnvironment, parseJsonLines, runCli } from './cli-harness.js';
import { startStreamingModelServer, type ModelStep } from '@clawsmith/test-utils/model-servers';

const PROJECT = {
  'calc.mjs': 'export function add(a, b) {\n  return a - b;\n}\n',
  'test.mjs':
    "import { add } from './calc.mjs';\nconst got = add(2, 3);\nif (got !== 5) {\n  console.log(`FAIL: add(2, 3) = ${got}, expected 5`);\n  process.exit(1);\n}\nconsole.log('PASS');\n",
  'AGENTS.md': 'Run the tests with `node test.mjs` before you finish.\n',
};

// Two calls in the first message; the test run and the read of calc.mjs repeat in later steps.
const STEPS: readonly ModelStep[] = [
  {
    text: 'Let me look at the code and the test.',
    calls: [
      { name: 'read_file', arguments: { path: 'calc.mjs' } },
      { name: 'read_file', arguments: { path: 'test.mjs' } },
    ],
  },
  { calls: [{ name: 'run_command', arguments: { command: 'node test.mjs' } }] },
  {
    text: 'add subtracts; fixing it.',
    calls: [{ name: 'edit_file', arguments: { path: 'calc.mjs', oldText: 'a - b', newText: 'a + b' } }],
  },
  { calls: [{ name: 'run_command', arguments: { command: 'node test.mjs' } }] },
  { calls: [{ name: 'read_file', arguments: { path: 'calc.mjs' } }] },
  { text: 'Fixed: add now adds, and node test.mjs passes.' },
];

const PROMPT = 'The test fails. Fix it.';
// Six model requests and four child processes each; a loaded shared machine needs far more than 30 s.
const LOOP_TIMEOUT = 180_000;

/** The text of every tool result the request carried, in either vendor's shape. */
function toolResultsOf(
  format: 'openai' | 'anthropic',
  body: Record<string, unknown>,
): { text: string; isError: boolean }[] {
  const messages = body.messages as Record<string, unknown>[];
  if (format === 'openai')
    return messages
      .filter((message) => message.role === 'tool')
      .map((message) => ({ text: String(message.content), isError: false }));
  return messages.flatMap((message) =>
    Array.isArray(message.content)
      ? (message.content as Record<string, unknown>[])
          .filter((block) => block.type === 'tool_result')
          .map((block) => ({
            text: typeof block.content === 'string' ? block.content : JSON.stringify(block.content),
            isError: block.is_error === true,
          }))
      : [],
  );
}

function systemOf(format: 'openai' | 'anthropic', body: Record<string, unknown>): string {
  if (format === 'anthropic') return typeof body.system === 'string' ? body.system : JSON.stringify(body.system ?? '');
  const first = (body.messages as Record<string, unknown>[])[0];
  return first?.role === 'system' ? String(first.content) : '';
}

function toolNamesOf(format: 'openai' | 'anthropic', body: Record<string, unknown>): string[] {
  const tools = (body.tools ?? []) as Record<string, unknown>[];
  return tools.map((tool) =>
    format === 'openai' ? String((tool.function as Record<string, unknown>).name) : String(tool.name),
  );
}

function providerArguments(format: 'openai' | 'anthropic', baseURL: string) {
  return {
    args: ['--provider', format, '--model', 'local-model'],
    env: format === 'openai' ? { OPENAI_BASE_URL: baseURL } : { ANTHROPIC_BASE_URL: baseURL },
  };
}

/** What the model was shown along the way: the test's failure, the fix passing, the fixed file. */
function expectTheModelSawTheLoop(
  format: 'openai' | 'anthropic',
  requests: Record<string, unknown>[],
  workspace: string,
) {
  expect(requests).toHaveLength(6);
  const system = systemOf(format, requests[0]!);
  expect(system).toContain('You are clawsmith');
  expect(system).toContain(`Workspace root: ${workspace}`);
  expect(system).toContain('Run the tests with `node test.mjs`');
  const firstTools = toolNamesOf(format, requests[0]!);
  expect(firstTools).toContain('run_command');
  expect(firstTools).not.toContain('start_command');
  const afterFailingRun = toolResultsOf(format, requests[2]!).at(-1)!;
  expect(afterFailingRun.text).toContain('FAIL: add(2, 3) = -1, expected 5');
  expect(afterFailingRun.text).toContain('exit code 1');
  if (format === 'anthropic') expect(afterFailingRun.isError).toBe(true);
  const afterPassingRun = toolResultsOf(format, requests[4]!).at(-1)!;
  expect(afterPassingRun.text).toContain('PASS');
  expect(afterPassingRun.text).toContain('exit code 0');
  if (format === 'anthropic') expect(afterPassingRun.isError).toBe(false);
  const afterReread = toolResultsOf(format, requests[5]!).at(-1)!;
  expect(afterReread.text).toContain('return a + b;');
  expect(afterReread.text).not.toContain('duplicate');
}

describe.each(['openai', 'anthropic'] as const)('a real model session over the %s streaming API', (format) => {
  it(
    'clawsmith run --json goes through read, failing test, edit, passing test, re-read, finish',
    async () => {
      const server = await startStreamingModelServer(format, STEPS);
      onTestFinished(() => server.close());
      const home = testdir();
      const workspace = testdir(PROJECT);
      const provider = providerArguments(format, server.baseURL);
      const run = await runCli(
        ['run', '--json', ...provider.args, '--permission-mode', 'full-auto', '--workspace', workspace, PROMPT],
        { home, env: provider.env },
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(readFileSync(join(workspace, 'calc.mjs'), 'utf8')).toContain('return a + b;');
      const events = parseJsonLines(run.stdout);
      const completed = events.filter((event) => event.type === 'tool.completed');
      expect(completed.map((event) => [event.toolName, (event.result as Record<string, unknown>).status])).toEqual([
        ['read_file', 'success'],
        ['read_file', 'success'],
        ['run_command', 'error'],
        ['edit_file', 'success'],
        ['run_command', 'success'],
        ['read_file', 'success'],
      ]);
      expect(completed[2]!.result).toMatchObject({ code: 'command_failed', exitCode: 1 });
      expect(completed[4]!.result).toMatchObject({ exitCode: 0 });
      expect((completed[4]!.result as Record<string, unknown>).durationMs).toEqual(expect.any(Number));
      // usage from the final chunk reached the request evidence
      const requestsCompleted = events.filter((event) => event.type === 'request.completed');
      expect(requestsCompleted).toHaveLength(6);
      expect(requestsCompleted[0]).toMatchObject({ usage: { inputTokens: 100, outputTokens: 10 } });
      const started = events.filter((event) => event.type === 'request.started');
      expect(started[0]!.systemPromptSha256).toMatch(/^[0-9a-f]{64}$/);
      expect(events.at(-1)).toMatchObject({ type: 'turn.completed', status: 'completed', steps: 6 });
      expectTheModelSawTheLoop(format, server.requests, workspace);
    },
    LOOP_TIMEOUT,
  );

  it(
    'clawsmith chat in a terminal shows the same loop, with exit codes on the command lines',
    async () => {
      const server = await startStreamingModelServer(format, STEPS);
      onTestFinished(() => server.close());
      const home = testdir();
      const workspace = testdir(PROJECT);
      const provider = providerArguments(format, server.baseURL);
      const pty: IPty = spawn(
        process.execPath,
        [BIN, ...provider.args, '--permission-mode', 'full-auto', '--workspace', workspace],
        { name: 'xterm-256color', cols: 160, rows: 50, cwd: home, env: childEnvironment(home, provider.env) },
      );
      onTestFinished(() => {
        try {
          pty.kill();
        } catch {
          // already gone
        }
      });
      let screen = '';
      pty.onData((data) => (screen += data));
      const exited = new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)));
      await expect.poll(() => screen, { timeout: 120_000, interval: 100 }).toContain('› ');
      pty.write(`${PROMPT}\r`);
      await expect.poll(() => screen, { timeout: 120_000, interval: 100 }).toMatch(/turn #1 \S+ completed/);
      const lines = screen.split(/\r?\n/);
      const commandLines = lines.filter((line) => line.includes('run_command $ node test.mjs'));
      expect(commandLines[0]).toMatch(
        /✗ error \(command_failed\) run_command \$ node test\.mjs · exit 1 · \d+(\.\d)? m?s/,
      );
      expect(commandLines[1]).toMatch(/✓ success run_command \$ node test\.mjs · exit 0 · \d+(\.\d)? m?s/);
      expect(screen).toContain('FAIL: add(2, 3) = -1, expected 5');
      expect(screen).toContain('Fixed: add now adds, and node test.mjs passes.');
      expect(screen).not.toContain('duplicate_call');
      expect(readFileSync(join(workspace, 'calc.mjs'), 'utf8')).toContain('return a + b;');
      pty.write('/exit\r');
      expect(await exited).toBe(0);
      expectTheModelSawTheLoop(format, server.requests, workspace);
    },
    LOOP_TIMEOUT,
  );
});
