import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommandRefusedError, createRunCommandTool } from '@clawsmith/command-sandbox';

const workspaceRoot = mkdtempSync(join(tmpdir(), 'clawsmith-command-sandbox-example-'));
// sandbox 'auto': bubblewrap on Linux, sandbox-exec on macOS; without one, sandbox_unavailable is thrown.
const runCommand = createRunCommandTool({ network: false, env: ['CI'] });
const context = {
  authorized: true, // you decided this call may run: core's permission policy does this for an agent
  workspaceRoot,
  sessionId: 's',
  turnId: 't',
  toolCallId: 'c',
  signal: AbortSignal.timeout(60_000),
};
try {
  const result = await runCommand.execute(
    { command: 'echo made > out.txt && cat out.txt', timeoutSeconds: 30 },
    context,
  );
  console.log(result.status, readFileSync(join(workspaceRoot, 'out.txt'), 'utf8').trim()); // success made
  const failed = await runCommand.execute({ command: 'exit 3' }, context);
  console.log(failed.status, failed.code); // error command_failed (a result, not a throw)
  await runCommand.execute({ command: 'sudo reboot' }, context).catch((error: unknown) => {
    if (!(error instanceof CommandRefusedError)) throw error;
    console.log('refused:', error.code, error.rule); // refused: command_refused privilege_escalation
  });
} finally {
  rmSync(workspaceRoot, { recursive: true, force: true });
}
