import { homedir } from 'node:os';
import { join } from 'node:path';
import { createScriptedProvider } from '@clawsmith/providers';
import { testdir } from '@clawsmith/test-utils';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { createAgentCore } from './agent-core.js';
import { createBuiltinTools } from './builtin-tools.js';
import { openClawsmithHome, resolveClawsmithHome } from './clawsmith-home.js';

const saved = process.env.CLAWSMITH_HOME;
afterEach(() => {
  if (saved === undefined) delete process.env.CLAWSMITH_HOME;
  else process.env.CLAWSMITH_HOME = saved;
});

describe('resolveClawsmithHome', () => {
  it('treats an empty CLAWSMITH_HOME as unset, never as the current folder', () => {
    process.env.CLAWSMITH_HOME = '';
    expect(resolveClawsmithHome()).toBe(join(homedir(), '.clawsmith'));
    expect(resolveClawsmithHome('')).toBe(join(homedir(), '.clawsmith'));
    process.env.CLAWSMITH_HOME = '/srv/clawsmith-home';
    expect(resolveClawsmithHome()).toBe('/srv/clawsmith-home');
    expect(resolveClawsmithHome('/explicit')).toBe('/explicit');
  });
});

describe('a workspace that contains the home', () => {
  it('is refused with home_inside_workspace at session creation and at every turn', async () => {
    const workspace = testdir({ 'a.txt': 'a' });
    const homePath = join(workspace, '.clawsmith-home');
    const home = await openClawsmithHome(homePath);
    onTestFinished(() => home.close());
    const options = {
      db: home.db,
      provider: createScriptedProvider({ script: { responses: [{ text: 'hi' }] } }),
      checkpoints: home.checkpoints,
      builtinTools: createBuiltinTools({ command: { sandbox: 'off' } }),
    };
    const guarded = createAgentCore({ ...options, homeFolder: homePath });
    onTestFinished(() => guarded.close());
    await expect(guarded.createSession({ workspaceRoot: workspace })).rejects.toMatchObject({
      code: 'home_inside_workspace',
      message: expect.stringContaining('--home or CLAWSMITH_HOME'),
    });
    // A session stored earlier (or by a core that did not know the home) cannot run a turn either.
    const unguarded = createAgentCore(options);
    onTestFinished(() => unguarded.close());
    const session = await unguarded.createSession({ workspaceRoot: workspace });
    await expect(guarded.runTurn({ sessionId: session.id, prompt: 'go' })).rejects.toMatchObject({
      code: 'home_inside_workspace',
    });
    expect(await guarded.listTurns(session.id)).toEqual([]);
    // The home beside the workspace, not inside, is fine.
    const elsewhere = testdir({});
    const sibling = createAgentCore({ ...options, homeFolder: elsewhere });
    onTestFinished(() => sibling.close());
    await expect(sibling.createSession({ workspaceRoot: workspace })).resolves.toMatchObject({
      workspaceRoot: workspace,
    });
  });
});
