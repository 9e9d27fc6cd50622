// Long sessions: the 200-step session of the cli's long-session test, run through the built
// `clawsmith` command against the windowed model server (a real tokenizer counts what is sent),
// once in a 64,000-token window and once on an unlimited window without compaction. Prints the
// input tokens sent in all (aim ≤ 0.5x of the unlimited run), the share of input tokens read
// from the prompt cache over the Anthropic format as the server computes it from the request's
// breakpoints (aim ≥ 80 % after the first request), and compaction's own time outside the model
// on a 2,000-message history (aim ≤ 20 ms). Needs the built binary (`nx run @clawsmith/cli:build`).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeTree } from '@clawsmith/test-utils';
import {
  LONG_SESSION_FILES,
  LONG_SESSION_TURNS,
  longSessionStep,
  startWindowedModelServer,
  type WindowedRequest,
} from '@clawsmith/test-utils/model-servers';
import { compactionTimes } from './compaction-timing.js';
import { medianOf, report } from './measure.js';

const bin = fileURLToPath(new URL('../../../packages/cli/dist/bin.js', import.meta.url));
if (!existsSync(bin)) {
  console.error(`${bin} is missing: build it first with \`npx nx run @clawsmith/cli:build\`.`);
  process.exit(1);
}

const WINDOW = 64_000;
const UNLIMITED = 100_000_000;

function runClawsmith(args: readonly string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`clawsmith ${args[0]} exited ${code}: ${stderr.slice(0, 500)}`)),
    );
  });
}

/** What one played session left: the server's view of each request, and each compaction's own time. */
interface PlayedSession {
  readonly requests: readonly WindowedRequest[];
  readonly compactionMs: readonly number[];
}

/** Plays the whole session in one window. */
async function playSession(format: 'openai' | 'anthropic', window: number): Promise<PlayedSession> {
  const server = await startWindowedModelServer(format, longSessionStep, window);
  const home = mkdtempSync(join(tmpdir(), 'clawsmith-bench-home-'));
  const workspace = mkdtempSync(join(tmpdir(), 'clawsmith-bench-ws-'));
  writeTree(workspace, { ...LONG_SESSION_FILES });
  const env = {
    CLAWSMITH_HOME: home,
    ...(format === 'openai' ? { OPENAI_BASE_URL: server.baseURL } : { ANTHROPIC_BASE_URL: server.baseURL }),
  };
  const compactionMs: number[] = [];
  try {
    let sessionId: string | undefined;
    for (let turn = 0; turn < LONG_SESSION_TURNS; turn += 1) {
      const stdout = await runClawsmith(
        [
          'run',
          '--json',
          '--provider',
          format,
          '--model',
          'local-model',
          '--context-window',
          String(window),
          '--permission-mode',
          'full-auto',
          '--workspace',
          workspace,
          ...(sessionId ? ['--session', sessionId] : []),
          `Part ${turn + 1}.`,
        ],
        env,
      );
      const events = stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; sessionId: string; durationMs?: number });
      sessionId ??= events[0]?.sessionId;
      for (const event of events)
        if (event.type === 'context.compacted' && event.durationMs !== undefined) compactionMs.push(event.durationMs);
    }
    return { requests: server.requests, compactionMs };
  } finally {
    await server.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
const format = (value: number) => value.toLocaleString('en-US');

const { requests: compacted, compactionMs } = await playSession('openai', WINDOW);
const { requests: unlimited } = await playSession('openai', UNLIMITED);
const sentCompacted = sum(compacted.map((request) => request.tokens));
const sentUnlimited = sum(unlimited.map((request) => request.tokens));
console.log('\n## input tokens sent over the 200-step session (OpenAI format)');
console.log('| run | requests | refused | summaries | largest request | input tokens sent | ratio |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const [label, requests, total] of [
  [`unlimited window, no compaction`, unlimited, sentUnlimited],
  [`${format(WINDOW)}-token window, compaction`, compacted, sentCompacted],
] as const)
  console.log(
    `| ${label} | ${requests.length} | ${requests.filter((r) => r.rejected).length} | ${requests.filter((r) => r.summary).length} | ${format(Math.max(...requests.map((r) => r.tokens)))} | ${format(total)} | ${(total / sentUnlimited).toFixed(2)}x |`,
  );

console.log(
  `\nCompactions in that session: ${compactionMs.length}, their own time (durationMs) median ${medianOf(compactionMs).toFixed(1)} ms, max ${Math.max(...compactionMs).toFixed(1)} ms.`,
);

const { requests: anthropic } = await playSession('anthropic', WINDOW);
const served = anthropic.filter((request) => !request.rejected).slice(1);
const mainLoop = served.filter((request) => !request.summary);
const share = (requests: readonly WindowedRequest[]) =>
  sum(requests.map((request) => request.cacheRead)) / sum(requests.map((request) => request.tokens));
console.log('\n## prompt cache over the Anthropic format, 64,000-token window (after the first request)');
console.log('| requests | input tokens | read from cache | share |');
console.log('|---|---:|---:|---:|');
console.log(
  `| all ${served.length} | ${format(sum(served.map((r) => r.tokens)))} | ${format(sum(served.map((r) => r.cacheRead)))} | ${(share(served) * 100).toFixed(1)} % |`,
);
console.log(
  `| the ${mainLoop.length} of the agent loop (summaries aside) | ${format(sum(mainLoop.map((r) => r.tokens)))} | ${format(sum(mainLoop.map((r) => r.cacheRead)))} | ${(share(mainLoop) * 100).toFixed(1)} % |`,
);

const times = await compactionTimes();
report('compaction outside the model, 2,000-message history', times.reference, times.timings);
