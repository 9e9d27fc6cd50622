import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWebHarness, type WebHarness } from '../__fixtures__/web-harness.js';

/** Two turns: the first creates b.txt, the second edits a.txt. */
async function twoTurns(): Promise<{ web: WebHarness; sessionId: string; first: string; second: string }> {
  const web = await createWebHarness({
    files: { 'a.txt': 'one\ntwo\nthree\n' },
    responses: [
      { toolCalls: [{ id: 'w1', name: 'write_file', arguments: { path: 'b.txt', content: 'new file\n' } }] },
      { text: 'Created.' },
      { toolCalls: [{ id: 'r1', name: 'read_file', arguments: { path: 'a.txt' } }] },
      {
        toolCalls: [
          { id: 'e1', name: 'edit_file', arguments: { path: 'a.txt', oldText: 'two', newText: 'TWO\nmore' } },
        ],
      },
      { text: 'Edited.' },
    ],
  });
  const session = await web.core.createSession({ workspaceRoot: web.workspace });
  const first = await web.core.runTurn({ sessionId: session.id, prompt: 'create b' });
  const second = await web.core.runTurn({ sessionId: session.id, prompt: 'edit a' });
  expect([first.status, second.status]).toEqual(['completed', 'completed']);
  return { web, sessionId: session.id, first: first.turnId, second: second.turnId };
}

describe('turns, diffs and restore', () => {
  it('lists turns with manifests only, and serves one file diff on request', async () => {
    const { web, sessionId, second } = await twoTurns();
    const turns = (await (await web.api(`/api/sessions/${sessionId}/turns`)).json()) as {
      turns: { prompt: string; status: string; checkpoint: { files: Record<string, unknown>[]; undone: boolean } }[];
    };
    expect(turns.turns.map((turn) => [turn.prompt, turn.status, turn.checkpoint.undone])).toEqual([
      ['create b', 'completed', false],
      ['edit a', 'completed', false],
    ]);
    expect(turns.turns[1]!.checkpoint.files).toEqual([
      {
        path: 'a.txt',
        change: 'modified',
        entry: 'file',
        bytesBefore: 14,
        bytesAfter: 19,
        linesAdded: 2,
        linesRemoved: 1,
        binary: false,
        undoable: true,
      },
    ]);
    expect(JSON.stringify(turns)).not.toContain('three');

    const diff = await web.api(`/api/sessions/${sessionId}/turns/${second}/diff?path=a.txt`);
    expect(diff.status).toBe(200);
    expect(await diff.json()).toMatchObject({
      path: 'a.txt',
      binary: false,
      before: { text: 'one\ntwo\nthree\n', truncated: false },
      after: { text: 'one\nTWO\nmore\nthree\n', truncated: false },
    });
    const notInTurn = await web.api(`/api/sessions/${sessionId}/turns/${second}/diff?path=b.txt`);
    expect(notInTurn.status).toBe(404);
    expect(await notInTurn.json()).toMatchObject({ error: { code: 'checkpoint_path_not_in_turn' } });
    const noPath = await web.api(`/api/sessions/${sessionId}/turns/${second}/diff`);
    expect(noPath.status).toBe(400);
    const other = await web.core.createSession({ workspaceRoot: web.workspace });
    const across = await web.api(`/api/sessions/${other.id}/turns/${second}/diff?path=a.txt`);
    expect(across.status).toBe(404);
    expect(await across.json()).toMatchObject({ error: { code: 'turn_not_found' } });
  });

  it('answers a restore that meets a changed file with 409 and the paths, and changes nothing', async () => {
    const { web, sessionId, first } = await twoTurns();
    writeFileSync(join(web.workspace, 'a.txt'), 'the person edited this\n');
    const messagesBefore = (await web.store.listMessages(sessionId)).length;
    const response = await web.api(`/api/sessions/${sessionId}/turns/${first}/restore`, { json: { scope: 'all' } });
    expect(response.status).toBe(409);
    const body = (await response.json()) as { error: { code: string; conflicts: { path: string }[] } };
    expect(body.error.code).toBe('checkpoint_conflict');
    expect(body.error.conflicts.map((conflict) => conflict.path)).toEqual(['a.txt']);
    expect(readFileSync(join(web.workspace, 'a.txt'), 'utf8')).toBe('the person edited this\n');
    expect(readFileSync(join(web.workspace, 'b.txt'), 'utf8')).toBe('new file\n');
    expect((await web.store.listMessages(sessionId)).length).toBe(messagesBefore);
  });

  it('restores the conversation, the files, or both, as the scope says', async () => {
    const { web, sessionId, first, second } = await twoTurns();
    const files = await web.api(`/api/sessions/${sessionId}/turns/${second}/restore`, { json: { scope: 'files' } });
    expect(files.status).toBe(200);
    expect(await files.json()).toMatchObject({ scope: 'files', restoredPaths: ['a.txt'] });
    expect(readFileSync(join(web.workspace, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    expect((await web.store.listTurns(sessionId)).length).toBe(2);

    const conversation = await web.api(`/api/sessions/${sessionId}/turns/${second}/restore`, {
      json: { scope: 'session' },
    });
    expect(conversation.status).toBe(200);
    expect((await web.store.listTurns(sessionId)).map((turn) => turn.turnId)).toEqual([first]);

    const both = await web.api(`/api/sessions/${sessionId}/turns/${first}/restore`, { json: { scope: 'all' } });
    expect(both.status).toBe(200);
    expect(await both.json()).toMatchObject({ scope: 'all', restoredPaths: ['b.txt'], messageCount: 0 });
    expect((await web.store.listTurns(sessionId)).length).toBe(0);

    const bad = await web.api(`/api/sessions/${sessionId}/turns/${first}/restore`, { json: { scope: 'everything' } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 'invalid_request' } });
  });

  it('forks a session at a turn and renames it', async () => {
    const { web, sessionId, first } = await twoTurns();
    const fork = await web.api(`/api/sessions/${sessionId}/fork`, { json: { atTurnId: first } });
    expect(fork.status).toBe(201);
    const child = (await fork.json()) as { id: string; parentSessionId: string; forkedAtTurnId: string };
    expect(child).toMatchObject({ parentSessionId: sessionId, forkedAtTurnId: first });
    expect((await web.store.listTurns(child.id)).length).toBe(1);
    const renamed = await web.api(`/api/sessions/${child.id}`, { method: 'PATCH', json: { title: 'the fork' } });
    expect(await renamed.json()).toMatchObject({ id: child.id, title: 'the fork' });
    const list = (await (await web.api('/api/sessions?limit=1')).json()) as {
      sessions: { id: string }[];
      nextOffset: number | null;
    };
    expect(list.sessions.map((session) => session.id)).toEqual([child.id]);
    expect(list.nextOffset).toBe(1);
  });

  it('deletes a session with its restore points; the files stay; a second delete is 404', async () => {
    const { web, sessionId } = await twoTurns();
    const refused = await web.api(`/api/sessions/${sessionId}`, {
      method: 'DELETE',
      headers: { origin: 'http://evil.example' },
    });
    expect(refused.status).toBe(403);
    const deleted = await web.api(`/api/sessions/${sessionId}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toMatchObject({ sessionId, restorePointsRemoved: 2 });
    expect(readFileSync(join(web.workspace, 'b.txt'), 'utf8')).toBe('new file\n');
    expect((await (await web.api(`/api/sessions/${sessionId}`)).json()) as unknown).toMatchObject({
      error: { code: 'session_not_found' },
    });
    const again = await web.api(`/api/sessions/${sessionId}`, { method: 'DELETE' });
    expect(again.status).toBe(404);
  });
});
