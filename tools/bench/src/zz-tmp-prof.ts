import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentCore, createBuiltinTools, openClawsmithHome } from '@clawsmith/core';
import { createScriptedProvider } from '@clawsmith/providers';
const home = mkdtempSync(join(tmpdir(), 'ew-prof-home-'));
const workspace = mkdtempSync(join(tmpdir(), 'ew-prof-ws-'));
writeFileSync(join(workspace, 'notes.md'), `${'clawsmith reads this line.\n'.repeat(150)}`);
const opened = await openClawsmithHome(home);
const core = createAgentCore({ db: opened.db, provider: createScriptedProvider({ script: { responses: [] } }), checkpoints: opened.checkpoints, artifacts: opened.artifacts, builtinTools: createBuiltinTools({ command: { sandbox: 'auto' } }), permissionMode: 'accept-edits' });
const session = await core.createSession({ workspaceRoot: workspace });
for (let i = 0; i < 1500; i++) { const o = await core.callTool({ sessionId: session.id, name: 'read_file', arguments: { path: 'notes.md' } }); if (o.result.status !== 'success') throw new Error(); }
await core.close(); await opened.close();
