// Test support: runs one command with a network allowlist in a process of its own, then prints the
// pids of the prepared network namespaces left waiting; the line `exit` ends this process
// normally, `die` kills it (SIGKILL) without any clean-up of its own.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { runCommand } from '../index.js';
import { preparedNamespaceProcesses } from '../network/prepared-network-namespace.js';

const result = await runCommand(
  { capture: 'off', networkAllowlist: { domains: ['allowed.test'] } },
  { workspaceRoot: mkdtempSync(join(tmpdir(), 'clawsmith-prepared-')), command: 'true', timeoutMs: 60_000 },
);
if (result.exitCode !== 0) throw new Error(`the command failed: ${result.output}`);
process.stdout.write(`${preparedNamespaceProcesses().join(' ')}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'exit') process.exit(0);
  if (line === 'die') process.kill(process.pid, 'SIGKILL');
}
