import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentCore, createBuiltinTools, openClawsmithHome } from '@clawsmith/core';
import { createScriptedProvider } from '@clawsmith/providers';

const scratch = mkdtempSync(join(tmpdir(), 'clawsmith-core-example-'));
const workspaceRoot = join(scratch, 'project');
mkdirSync(workspaceRoot);
writeFileSync(join(workspaceRoot, 'README.md'), 'Helo, world\n');

const home = await openClawsmithHome(join(scratch, 'home'));
const core = createAgentCore({
  db: home.db,
  checkpoints: home.checkpoints,
  artifacts: home.artifacts,
  // A scripted model: each request takes the next response. Swap in createOpenAIProvider for a real one.
  provider: createScriptedProvider({
    script: {
      responses: [
        { toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] },
        { toolCalls: [{ name: 'edit_file', arguments: { path: 'README.md', oldText: 'Helo', newText: 'Hello' } }] },
        { text: 'Fixed the typo.' },
      ],
    },
  }),
  builtinTools: createBuiltinTools({ command: { sandbox: 'auto' } }),
  permissionMode: 'accept-edits',
});
try {
  const session = await core.createSession({ workspaceRoot });
  const turn = await core.runTurn({ sessionId: session.id, prompt: 'Fix the typo in README.md' });
  console.log(turn.status, turn.text, readFileSync(join(workspaceRoot, 'README.md'), 'utf8').trim());
  // completed Fixed the typo. Hello, world
  // The event log is typed: switch on `type` and each event's own fields are known.
  for (const event of await core.listEvents(session.id))
    if (event.type === 'tool.completed') console.log(event.toolName, event.result.status, event.result.display?.title);
  // read_file success Read README.md
  // edit_file success Edited README.md
  await core.restore(session.id, turn.turnId, 'files'); // undo the turn's file changes
  console.log('after undo:', readFileSync(join(workspaceRoot, 'README.md'), 'utf8').trim()); // after undo: Helo, world
} finally {
  await core.close();
  await home.close();
  rmSync(scratch, { recursive: true, force: true });
}
