// Overhead of run_command("true") sandboxed and unsandboxed, beside plain execa of the same command.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateCommandSafety, prepareCommand, runCommand } from '@clawsmith/command-sandbox';
import { execa } from 'execa';
import { measure, report } from './measure.js';

const workspace = mkdtempSync(join(tmpdir(), 'clawsmith-bench-sandbox-'));
try {
  const runs = 40;
  const plain = await measure('execa true', () => execa('true'), runs);
  const plainBash = await measure('execa bash -c true', () => execa('/bin/bash', ['-c', 'true']), runs);
  const safety = await measure(
    'evaluateCommandSafety only',
    () => evaluateCommandSafety("npm test && bash -c 'echo done' | tee log"),
    runs,
  );
  const prepared = await prepareCommand({}, workspace, 'true');
  const bwrapOnly = await measure(
    'execa of the bwrap line alone',
    () => execa(prepared.launch.file, prepared.launch.args, { env: prepared.launch.environment, extendEnv: false }),
    runs,
  );
  const unsandboxed = await measure(
    "runCommand true, sandbox 'off'",
    () => runCommand({ sandbox: 'off' }, { workspaceRoot: workspace, command: 'true' }),
    runs,
  );
  const sandboxed = await measure(
    'runCommand true, bubblewrap',
    () => runCommand({}, { workspaceRoot: workspace, command: 'true' }),
    runs,
  );
  report('run_command("true") overhead', plain, [plainBash, safety, bwrapOnly, unsandboxed, sandboxed]);
  console.log(
    `\nsandboxed run_command adds ${(sandboxed.medianMs - plain.medianMs).toFixed(1)} ms over plain execa at the median (aim: under 30 ms); unsandboxed adds ${(unsandboxed.medianMs - plain.medianMs).toFixed(1)} ms`,
  );
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
