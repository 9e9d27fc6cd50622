// Cold start of the `clawsmith` command: `clawsmith --help` (and `--version`) as real child
// processes, beside `node -e 0` in the same run (wall time, and the children's CPU time). Aim:
// --help under 300 ms. Needs the built binary (`nx run @clawsmith/cli:build`).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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

function spawnNode(args: readonly string[]): void {
  const result = spawnSync(process.execPath, [...args], { stdio: 'ignore', env: { ...process.env, NODE_OPTIONS: '' } });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}`);
}

// Interleaved rounds (each command once per round) so that load from other work on a shared
// machine hits every command alike; medians per command.
const commands: [string, string[]][] = [
  ['node -e 0', ['-e', '0']],
  ['clawsmith --help', [bin, '--help']],
  ['clawsmith --version', [bin, '--version']],
  ['clawsmith run --help', [bin, 'run', '--help']],
];
const rounds = 30;
const samples = new Map<string, number[]>(commands.map(([label]) => [label, []]));
const cpuMs = new Map<string, number>(commands.map(([label]) => [label, 0]));
for (let round = 0; round < rounds + 3; round += 1) {
  for (const [label, args] of commands) {
    const cpuBefore = waitedChildrenCpuMs();
    const start = performance.now();
    spawnNode(args);
    if (round < 3) continue;
    samples.get(label)!.push(performance.now() - start);
    const cpuAfter = waitedChildrenCpuMs();
    if (cpuBefore !== undefined && cpuAfter !== undefined) cpuMs.set(label, cpuMs.get(label)! + cpuAfter - cpuBefore);
  }
}
const timing = (label: string): Timing => timingOf(label, samples.get(label)!);
const [reference, ...others] = commands.map(([label]) => timing(label));
report('cli startup (child processes, interleaved)', reference!, others);
reportChildCpu('cli startup', cpuMs, rounds);
const help = others[0]!;
console.log(
  `\n--help median ${help.medianMs.toFixed(0)} ms (aim: under 300 ms); over bare node ${(help.medianMs - reference!.medianMs).toFixed(0)} ms`,
);
