// A real process that starts a turn whose tool hangs after writing a file, so a test can kill
// it with SIGKILL mid-call. The tool waits until its stdin closes, so the process stays alive
// until the test kills it. Arguments: <home> <workspace>.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createScriptedProvider } from '@clawsmith/providers';
import { defineTool } from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { createAgentCore } from '../agent-core.js';
import { createBuiltinTools } from '../builtin-tools.js';
import { openClawsmithHome } from '../clawsmith-home.js';

const [home, workspace] = process.argv.slice(2) as [string, string];
const opened = await openClawsmithHome(home);
const hang = defineTool({
  name: 'deploy',
  description: 'Writes a marker, then hangs.',
  risk: 'execute',
  capabilities: ['external.side-effect', 'filesystem.write'],
  concurrencySafe: false,
  inputSchema: z.object({ target: z.string() }),
  summarize: (input) => `deploy ${input.target}`,
  async execute(input, context) {
    writeFileSync(join(context.workspaceRoot, 'deployed.txt'), input.target);
    // A log the process is still appending to when it dies: recovery must seal it.
    const log = await context.artifacts?.openAppendable();
    await log?.append('deploy: uploading\n');
    process.stdout.write('TOOL_STARTED\n');
    // Wait on stdin, a pipe the test holds open until it has killed this process: a bare
    // never-settling promise holds nothing open, and Node would exit on its own (code 13)
    // before the SIGKILL arrived.
    await new Promise((resolve) => process.stdin.once('end', resolve).once('close', resolve).resume());
    process.stdout.write('STDIN_CLOSED\n');
    return 'never';
  },
});
const core = createAgentCore({
  db: opened.db,
  provider: createScriptedProvider({
    script: {
      responses: [
        {
          toolCalls: [
            { id: 'read-1', name: 'read_file', arguments: { path: 'a.txt' } },
            { id: 'deploy-1', name: 'deploy', arguments: { target: 'prod' } },
            { id: 'after-1', name: 'read_file', arguments: { path: 'b.txt' } },
          ],
        },
      ],
    },
  }),
  checkpoints: opened.checkpoints,
  artifacts: opened.artifacts,
  builtinTools: [...createBuiltinTools(), hang],
  permissionMode: 'full-auto',
});
const session = await core.createSession({ workspaceRoot: workspace });
process.stdout.write(`SESSION ${session.id}\n`);
await core.runTurn({ sessionId: session.id, prompt: 'deploy it' });
