import type { Command } from 'commander';
import { EXIT_CODES } from '../exit-codes.js';
import { openAgentRuntime } from './agent-runtime.js';

/** `clawsmith sessions delete ID [--json]`: the session's history, restore points and artifacts; never the workspace. */
export async function sessionDeleteCommand(
  _rawOptions: Record<string, unknown>,
  command: Command,
  sessionId?: string,
): Promise<number> {
  // `sessions` has the same options, and commander gives them to the parent wherever they are written.
  const options = command.optsWithGlobals<{ readonly home?: string; readonly json?: boolean }>();
  const runtime = await openAgentRuntime({ home: options.home });
  try {
    const deletion = await runtime.core.deleteSession(sessionId ?? '');
    if (options.json) process.stdout.write(`${JSON.stringify(deletion)}\n`);
    else
      process.stdout.write(
        `Deleted session ${deletion.sessionId}: ${deletion.restorePointsRemoved} restore points, ${deletion.artifactsRemoved} artifacts. The workspace's files were not touched.\n`,
      );
    return EXIT_CODES.ok;
  } finally {
    await runtime.close();
  }
}
