import { describe, expect, it } from 'vitest';
import { call, createHarness } from '../__fixtures__/core-harness.js';
import { SessionStore } from './session-store.js';

describe('AgentCore.sessions: what a front end reads through the core', () => {
  it('reads what a turn wrote, as the store holds it, and renames only sessions that exist', async () => {
    const harness = await createHarness({
      files: { 'notes.txt': 'one\n' },
      responses: [{ toolCalls: [call('c1', 'read_file', { path: 'notes.txt' })] }, { text: 'read it' }],
    });
    const { core, session, home } = harness;
    await core.runTurn({ sessionId: session.id, prompt: 'read notes.txt' });
    const store = new SessionStore(home.db);
    const sessions = core.sessions;

    expect(await sessions.requireSession(session.id)).toEqual(await store.requireSession(session.id));
    expect(await sessions.listEvents(session.id)).toEqual(await store.listEvents(session.id));
    const last = await sessions.lastSequence(session.id);
    expect(last).toBeGreaterThan(3);
    expect(await sessions.listEvents(session.id, { afterSequence: last - 2 })).toHaveLength(2);
    const [turn] = await sessions.listTurns(session.id);
    expect(turn?.status).toBe('completed');
    expect(await sessions.getLastTurn(session.id)).toEqual(turn);
    expect(await sessions.getTurn(session.id, turn!.turnId)).toEqual(turn);
    expect((await sessions.listMessages(session.id)).map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(await sessions.listApprovals(session.id)).toEqual([]);
    expect(await sessions.getTodos(session.id)).toEqual([]);

    const renamed = await sessions.renameSession(session.id, 'Reading notes');
    expect(renamed).toMatchObject({ id: session.id, title: 'Reading notes', workspaceRoot: session.workspaceRoot });
    expect((await sessions.listSessions({ limit: 1 }))[0]).toEqual(renamed);
    await expect(sessions.renameSession('no-such-session', 'x')).rejects.toMatchObject({ code: 'session_not_found' });
    expect(await store.getSession('no-such-session')).toBeUndefined();
  });
});
