// What one `clawsmith` command costs as a child process, as the cli's end-to-end tests spawn it:
// `sessions` in an empty home, `checkpoints` of a session with a turn, and `run --script` of a
// turn that writes a file, beside `node -e 0` in the same run: wall time, and the CPU time the
// children used (mean per run; on a loaded machine the steadier figure). Needs the built binary
// (`nx run @clawsmith/cli:build`).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { reportChildCpu, waitedChildrenCpuMs } from './child-cpu.js';
import { report, timingOf, type Timing } from './measure.js';

// CLAWSMITH_BENCH_BIN: another build to measure (a copy of an earlier dist/, to compare before and after).
const bin =
  process.env.CLAWSMITH_BENCH_BIN ?? fileURLToPath(new URL('../../../packages/cli/dist/bin.js', import.meta.url));
if (!existsSync(bin)) {
  console.error(`${bin} is missing: build it first with \`npx nx run @clawsmith/cli:build\`.`);
  process.exit(1);
}

const scratch = mkdtempSync(join(tmpdir(), 'clawsmith-bench-cli-commands-'));
const emptyHome = join(scratch, 'empty-home');
const home = join(scratch, 'home');
const workspace = join(scratch, 'workspace');
mkdirSync(workspace);
const script = join(scratch, 'script.json');
writeFileSync(
  script,
  JSON.stringify({
    responses: [
      { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'written by the bench\n' } }] },
      { text: 'done' },
    ],
  }),
);
const environment: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1' };
// The homes are SQLite ones in the scratch folder, whatever the shell says.
delete environment.CLAWSMITH_DATABASE_URL;

function spawnNode(args: readonly string[]): string {
  const result = spawnSync(process.execPath, [...args], { cwd: workspace, encoding: 'utf8', env: environment });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return result.stdout;
}

const runTurn = [bin, 'run', '--json', '--home', home, '--permission-mode', 'accept-edits', '--script', script, 'go'];
const firstEvent = JSON.parse(spawnNode(runTurn).split('\n')[0]!) as { sessionId: string };

// Interleaved rounds (each command once per round) so that load from other work on a shared
// machine hits every command alike; medians per command.
const commands: [string, string[]][] = [
  ['node -e 0', ['-e', '0']],
  ['clawsmith --version', [bin, '--version']],
  ['clawsmith sessions (empty home)', [bin, 'sessions', '--home', emptyHome]],
  ['clawsmith checkpoints --session', [bin, 'checkpoints', '--home', home, '--session', firstEvent.sessionId]],
  ['clawsmith run --script (one write)', runTurn],
];
const rounds = Number(process.env.CLI_BENCH_ROUNDS ?? 10);
const samples = new Map<string, number[]>(commands.map(([label]) => [label, []]));
const cpuMs = new Map<string, number>(commands.map(([label]) => [label, 0]));
try {
  for (let round = 0; round < rounds + 1; round += 1) {
    for (const [label, args] of commands) {
      const cpuBefore = waitedChildrenCpuMs();
      const start = performance.now();
      spawnNode(args);
      if (round < 1) continue;
      samples.get(label)!.push(performance.now() - start);
      const cpuAfter = waitedChildrenCpuMs();
      if (cpuBefore !== undefined && cpuAfter !== undefined) cpuMs.set(label, cpuMs.get(label)! + cpuAfter - cpuBefore);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
const timing = (label: string): Timing => timingOf(label, samples.get(label)!);
const [reference, ...others] = commands.map(([label]) => timing(label));
report('cli commands (child processes, interleaved)', reference!, others);
reportChildCpu('cli commands', cpuMs, rounds);
