import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createWebHarness } from '../__fixtures__/web-harness.js';
import { offeredWorkspaces } from '../workspaces/offered-workspaces.js';

// A turn runs on the server's own schedule: on a loaded 2-core machine it can take seconds to end,
// past expect.poll's default of one second (a time limit, not a speed assertion).
const TURN_ENDS = { timeout: 30_000 };

function folders() {
  const root = createTestdir({ 'project/readme.md': '# project\n', 'other/secret.txt': 'keep out\n' });
  onTestFinished(() => root.remove());
  return { project: join(root.path, 'project'), other: join(root.path, 'other'), root: root.path };
}

describe('new sessions from the page', () => {
  it('lists only the folders the server was started with and starts a session with its first prompt there', async () => {
    const { project } = folders();
    const web = await createWebHarness({ workspaces: [project, `${project}/`], responses: [{ text: 'Hello there.' }] });
    const listed = await (await web.api('/api/workspaces')).json();
    expect(listed).toEqual({ workspaces: [{ path: realpathSync(project) }], canRunTurns: true });

    const created = await web.api('/api/sessions', { json: { workspace: realpathSync(project), prompt: 'say hello' } });
    expect(created.status).toBe(201);
    const { sessionId, turnId } = (await created.json()) as { sessionId: string; turnId: string };
    expect(turnId).toMatch(/^[0-9a-f-]{36}$/);
    await expect.poll(async () => (await web.store.getLastTurn(sessionId))?.status, TURN_ENDS).toBe('completed');
    expect(await (await web.api(`/api/sessions/${sessionId}`)).json()).toMatchObject({
      workspaceRoot: realpathSync(project),
      firstPrompt: 'say hello',
      status: 'completed',
    });
  });

  it('refuses any folder it does not offer, even a real one, and creates nothing', async () => {
    const { project, other, root } = folders();
    const web = await createWebHarness({ workspaces: [project] });
    for (const workspace of [other, root, `${project}/..`, `${project}/../other`, 'project', '/']) {
      const refused = await web.api('/api/sessions', { json: { workspace, prompt: 'read secret.txt' } });
      expect(refused.status, workspace).toBe(400);
      expect(await refused.json()).toMatchObject({ error: { code: 'workspace_not_offered' } });
    }
    const extra = await web.api('/api/sessions', { json: { workspace: project, prompt: 'x', root: '/' } });
    expect(extra.status).toBe(400);
    expect(await web.store.listSessions()).toEqual([]);
  });

  it('says so when the server offers no folder or has no model, and creates nothing', async () => {
    const { project } = folders();
    const none = await createWebHarness();
    expect(await (await none.api('/api/workspaces')).json()).toEqual({ workspaces: [], canRunTurns: true });
    const refused = await none.api('/api/sessions', { json: { workspace: project, prompt: 'hi' } });
    expect(await refused.json()).toMatchObject({
      error: { code: 'workspace_not_offered', message: expect.stringContaining('start `clawsmith web` in the folder') },
    });

    const modelless = await createWebHarness({ workspaces: [project], canRunTurns: false });
    const noModel = await modelless.api('/api/sessions', { json: { workspace: realpathSync(project), prompt: 'hi' } });
    expect(noModel.status).toBe(409);
    expect(await noModel.json()).toMatchObject({ error: { code: 'provider_required' } });
    expect(await modelless.store.listSessions()).toEqual([]);
  });

  it('will not start with a folder that is missing, relative or a file', () => {
    const { root } = folders();
    writeFileSync(join(root, 'a-file'), 'x');
    for (const folder of [join(root, 'missing'), 'relative/path', join(root, 'a-file')])
      expect(() => offeredWorkspaces([folder]), folder).toThrow(expect.objectContaining({ code: 'invalid_workspace' }));
  });
});
