// A real process that claims a session for a turn whose tool holds it, so tests can race
// processes (as machines: CLAWSMITH_HOST_ID) for one session and kill the winner mid-turn.
// Arguments: <home> <session id> <lease ms> <renew every ms>. Prints READY once its core is
// composed; the first stdin line starts the turn; the tool prints TOOL_STARTED and holds the turn
// until stdin closes. Ends with `TURN <status>` (`TURN <status> <code> <message>` when the turn carries an error) or
// `REFUSED <code> <message>`.
import { createInterface } from 'node:readline';
import { createScriptedProvider } from '@clawsmith/providers';
import { ClawsmithError, defineTool } from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { createAgentCore } from '../agent-core.js';
import { openClawsmithHome } from '../clawsmith-home.js';

const [home, sessionId, leaseMs, renewMs] = process.argv.slice(2) as [string, string, string, string];
const opened = await openClawsmithHome(home);
const input = createInterface({ input: process.stdin });
const stdinClosed = new Promise<void>((resolve) => input.once('close', resolve));
const hold = defineTool({
  name: 'hold',
  description: 'Holds the turn until stdin closes.',
  risk: 'read',
  capabilities: ['filesystem.read'],
  concurrencySafe: true,
  inputSchema: z.object({}),
  summarize: () => 'hold',
  async execute() {
    process.stdout.write('TOOL_STARTED\n');
    await stdinClosed;
    return 'held';
  },
});
const core = createAgentCore({
  db: opened.db,
  provider: createScriptedProvider({
    script: { responses: [{ toolCalls: [{ name: 'hold', arguments: {} }] }, { text: 'done' }] },
  }),
  checkpoints: opened.checkpoints,
  builtinTools: [hold],
  permissionMode: 'full-auto',
  retention: false,
  turnLease: { durationMs: Number(leaseMs), renewEveryMs: Number(renewMs) },
});
process.stdout.write('READY\n');
await new Promise<void>((resolve) => input.once('line', () => resolve()));
try {
  const turn = await core.runTurn({ sessionId, prompt: `hold from ${process.env.CLAWSMITH_HOST_ID ?? 'here'}` });
  process.stdout.write(`TURN ${turn.status}${turn.error ? ` ${turn.error.code} ${turn.error.message}` : ''}\n`);
} catch (error) {
  if (!ClawsmithError.isInstance(error)) throw error;
  process.stdout.write(`REFUSED ${error.code} ${error.message.replaceAll('\n', ' ')}\n`);
}
input.close();
await core.close();
await opened.close();
