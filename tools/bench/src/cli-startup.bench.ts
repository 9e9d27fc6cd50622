// Cold start of the `clawsmith` command: `clawsmith --help` (and `--version`) as real child
// processes, beside `node -e 0` in the same run. Aim: --help under 300 ms. Needs the built
// binary (`nx run @clawsmith/cli:build`).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { measure, report } from './measure.js';

const bin = fileURLToPath(new URL('../../../packages/cli/dist/bin.js', import.meta.url));
if (!existsSync(bin)) {
  console.error(`${bin} is missing: build it first with \`npx nx run @clawsmith/cli:build\`.`);
  process.exit(1);
}

function spawnNode(args: readonly string[]): void {
  const result = spawnSync(process.execPath, [...args], { stdio: 'ignore', env: { ...process.env, NODE_OPTIONS: '' } });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}`);
}

const reference = await measure('node -e 0', () => spawnNode(['-e', '0']), 20, 3);
const help = await measure('clawsmith --help', () => spawnNode([bin, '--help']), 20, 3);
const version = await measure('clawsmith --version', () => spawnNode([bin, '--version']), 20, 3);
const runHelp = await measure('clawsmith run --help', () => spawnNode([bin, 'run', '--help']), 20, 3);
report('cli startup (child processes)', reference, [help, version, runHelp]);
console.log(`\n--help median ${help.medianMs.toFixed(0)} ms (aim: under 300 ms); overhead over bare node ${(help.medianMs - reference.medianMs).toFixed(0)} ms`);
