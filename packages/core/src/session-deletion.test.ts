import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, createHarness, createProbeTool } from './__fixtures__/core-harness.js';
import { createBuiltinTools } from './builtin-tools.js';

describe('AgentCore.deleteSession', () => {
  it("removes the session's rows, restore points, blobs and artifacts, and nothing of another session", async () => {
    const kept = await createHarness({
      permissionMode: 'full-auto',
      responses: [{ toolCalls: [call('k', 'write_file', { path: 'kept.txt', content: 'kept\n' })] }, { text: 'ok' }],
    });
    const doomed = await createHarness({
      permissionMode: 'full-auto',
      sharedHome: kept.home,
      responses: [
        { toolCalls: [call('w', 'write_file', { path: 'doomed.txt', content: 'doomed\n' })] },
        { toolCalls: [call('r', 'run_command', { command: 'head -c 120000 /dev/zero | tr "\\0" x' })] },
        { text: 'done' },
      ],
    });
    await kept.core.runTurn({ sessionId: kept.session.id, prompt: 'keep' });
    await doomed.core.runTurn({ sessionId: doomed.session.id, prompt: 'doom' });
    const artifactsFolder = join(kept.home.path, 'artifacts');
    const doomedArtifacts = await kept.home.artifacts.list(doomed.session.id);
    expect(doomedArtifacts.length).toBeGreaterThan(0);

    const deletion = await doomed.core.deleteSession(doomed.session.id);
    expect(deletion).toMatchObject({ sessionId: doomed.session.id, restorePointsRemoved: 1 });
    expect(deletion.artifactsRemoved).toBe(doomedArtifacts.length);
    expect((await kept.core.listSessions()).map((session) => session.id)).toEqual([kept.session.id]);
    await expect(doomed.core.listCheckpoints(doomed.session.id)).rejects.toMatchObject({ code: 'session_not_found' });
    expect(await kept.home.checkpoints.listRestorePoints(doomed.session.id)).toEqual([]);
    for (const artifact of doomedArtifacts) expect(existsSync(join(artifactsFolder, artifact.id))).toBe(false);
    expect(
      await kept.home.db
        .selectFrom('session_event')
        .select('sequence')
        .where('session_id', '=', doomed.session.id)
        .execute(),
    ).toEqual([]);
    // The workspace is the person's: deleting the history never touches it.
    expect(readdirSync(doomed.workspace).sort()).toEqual(['doomed.txt']);
    // The other session is whole: its undo works.
    await kept.core.restore(kept.session.id, (await kept.core.listTurns(kept.session.id))[0]!.turnId, 'files');
    expect(existsSync(join(kept.workspace, 'kept.txt'))).toBe(false);
    await expect(doomed.core.deleteSession(doomed.session.id)).rejects.toMatchObject({ code: 'session_not_found' });
  });

  it('refuses a session whose turn is running, and keeps everything', async () => {
    const probe = createProbeTool('slow');
    const harness = await createHarness({
      builtinTools: [...createBuiltinTools(), probe.tool],
      responses: [{ toolCalls: [call('s', 'slow', { label: 'wait', ms: 1_500 })] }, { text: 'done' }],
    });
    const running = harness.core.runTurn({ sessionId: harness.session.id, prompt: 'wait' });
    await expect.poll(() => probe.state.running, { timeout: 30_000 }).toBe(1);
    await expect(harness.core.deleteSession(harness.session.id)).rejects.toMatchObject({
      code: 'session_busy',
      message: expect.stringMatching(/stop it first/),
    });
    expect((await running).status).toBe('completed');
    expect((await harness.core.listTurns(harness.session.id)).length).toBe(1);
    await harness.core.deleteSession(harness.session.id);
  });
});
