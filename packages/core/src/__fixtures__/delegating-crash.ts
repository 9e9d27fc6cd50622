// A real process whose turn has two subagents running (one background, one delegate_task), each
// hanging in a tool until stdin closes, so a test can SIGKILL the parent while its children run.
// Arguments: <home> <workspace>.
import { createScriptedProvider } from '@clawsmith/providers';
import { defineTool } from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { createAgentCore } from '../agent-core.js';
import { createBuiltinTools } from '../builtin-tools.js';
import { openClawsmithHome } from '../clawsmith-home.js';

const [home, workspace] = process.argv.slice(2) as [string, string];
const opened = await openClawsmithHome(home);
const stdinClosed = new Promise((resolve) => process.stdin.once('end', resolve).once('close', resolve).resume());
const hang = defineTool({
  name: 'survey',
  description: 'Reads for a long time.',
  risk: 'read',
  capabilities: ['filesystem.read'],
  concurrencySafe: true,
  inputSchema: z.object({ label: z.string() }),
  summarize: (input) => `survey ${input.label}`,
  async execute(input) {
    process.stdout.write(`CHILD_TOOL_STARTED ${input.label}\n`);
    await stdinClosed;
    return 'never';
  },
});
const provider = createScriptedProvider({
  script: {
    responses: [
      { toolCalls: [{ id: 'b1', name: 'delegate_background', arguments: { prompt: 'background survey' } }] },
      { toolCalls: [{ id: 'd1', name: 'delegate_task', arguments: { prompt: 'foreground survey' } }] },
    ],
    children: {
      b1: { responses: [{ toolCalls: [{ id: 's-b1', name: 'survey', arguments: { label: 'b1' } }] }] },
      d1: { responses: [{ toolCalls: [{ id: 's-d1', name: 'survey', arguments: { label: 'd1' } }] }] },
    },
  },
});
const core = createAgentCore({
  db: opened.db,
  provider,
  delegation: { providerFor: (child) => provider.childProvider(child.parentToolCallId) },
  checkpoints: opened.checkpoints,
  builtinTools: [...createBuiltinTools(), hang],
  permissionMode: 'full-auto',
  alwaysLoadedTools: ['delegate_background'],
});
const session = await core.createSession({ workspaceRoot: workspace });
process.stdout.write(`SESSION ${session.id}\n`);
await core.runTurn({ sessionId: session.id, prompt: 'survey everything' });
