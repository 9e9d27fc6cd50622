import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, createHarness } from './__fixtures__/core-harness.js';
import { SessionStore } from './store/session-store.js';

async function editedTwice() {
  const harness = await createHarness({
    files: { 'a.txt': 'one\n' },
    permissionMode: 'accept-edits',
    responses: [
      { toolCalls: [call('t1', 'edit_file', { path: 'a.txt', oldText: 'one', newText: 'two' })] },
      { text: 'first done' },
      { toolCalls: [call('t2', 'edit_file', { path: 'a.txt', oldText: 'two', newText: 'three' })] },
      { text: 'second done' },
    ],
  });
  const first = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'first edit' });
  const second = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'second edit' });
  return { harness, first, second };
}

describe('turns whose conversation was undone', () => {
  it('a second conversation undo says the turn was already undone, not that it does not exist', async () => {
    const { harness, second } = await editedTwice();
    await harness.core.restore(harness.session.id, second.turnId, 'session');
    await expect(harness.core.restore(harness.session.id, second.turnId, 'session')).rejects.toMatchObject({
      code: 'turn_already_undone',
      message: expect.stringContaining('already undone'),
    });
    await expect(harness.core.restore(harness.session.id, second.turnId, 'all')).rejects.toMatchObject({
      code: 'turn_already_undone',
    });
  });

  it('a cut that loses the race to another restore of the same turn is refused and changes nothing', async () => {
    const { harness, second } = await editedTwice();
    // Two stores on one database, as two processes that both saw the turn live before cutting.
    const store = new SessionStore(harness.home.db);
    const point = await harness.home.checkpoints.getRestorePoint(harness.session.id, second.turnId);
    const cut = {
      turnId: second.turnId,
      messageCount: point.messageCount,
      eventSequence: point.eventSequence,
      turnOrdinal: 2,
      todos: [],
      activation: [],
    };
    await store.truncate(harness.session.id, cut);
    await store.appendEvent(harness.session.id, {
      type: 'todos.updated',
      todos: [{ content: 'after', status: 'pending' }],
    });
    await store.setTodos(harness.session.id, [{ content: 'after', status: 'pending' }]);
    const events = await store.listEvents(harness.session.id);
    await expect(store.truncate(harness.session.id, cut)).rejects.toMatchObject({ code: 'turn_already_undone' });
    expect(await store.listEvents(harness.session.id)).toEqual(events);
    expect(await store.getTodos(harness.session.id)).toEqual([{ content: 'after', status: 'pending' }]);
  });

  it('are listed with their status and prompt, and their files can still be put back', async () => {
    const { harness, first, second } = await editedTwice();
    await harness.core.restore(harness.session.id, first.turnId, 'session');
    expect(await harness.core.listTurns(harness.session.id)).toEqual([]);
    const undone = await harness.core.listUndoneTurns(harness.session.id);
    expect(undone.map((turn) => [turn.turnId, turn.ordinal, turn.status, turn.prompt])).toEqual([
      [first.turnId, 1, 'completed', 'first edit'],
      [second.turnId, 2, 'completed', 'second edit'],
    ]);
    expect(undone.every((turn) => typeof turn.undoneAt === 'string')).toBe(true);

    const files = await harness.core.restore(harness.session.id, first.turnId, 'files');
    expect(files.restoredPaths).toEqual(['a.txt']);
    expect(readFileSync(join(harness.workspace, 'a.txt'), 'utf8')).toBe('one\n');
  });

  it('an unknown session is session_not_found when listing turns', async () => {
    const { harness } = await editedTwice();
    await expect(harness.core.listTurns('no-such-session')).rejects.toMatchObject({ code: 'session_not_found' });
    await expect(harness.core.listUndoneTurns('no-such-session')).rejects.toMatchObject({
      code: 'session_not_found',
    });
  });
});
