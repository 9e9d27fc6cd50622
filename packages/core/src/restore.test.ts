import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotTree } from '@clawsmith/test-utils';
import { createCommandExecutionService } from '@clawsmith/command-sandbox';
import { describe, expect, it, onTestFinished } from 'vitest';
import { call, createHarness } from './__fixtures__/core-harness.js';

const twoTurns = [
  {
    toolCalls: [
      call('t1a', 'edit_file', { path: 'a.txt', oldText: 'one', newText: 'two' }),
      call('t1b', 'todo_write', { todos: [{ content: 'edit a', status: 'completed' }] }),
    ],
  },
  { text: 'first done' },
  {
    toolCalls: [
      call('t2a', 'write_file', { path: 'b.txt', content: 'created\n' }),
      call('t2b', 'todo_write', { todos: [{ content: 'create b', status: 'in_progress' }] }),
    ],
  },
  { text: 'second done' },
];

async function twoTurnSession() {
  const harness = await createHarness({
    files: { 'a.txt': 'one\n' },
    permissionMode: 'accept-edits',
    responses: twoTurns,
  });
  const first = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'first' });
  const second = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'second' });
  return { harness, first, second };
}

describe('restore', () => {
  it('files: undoes the turn and every later one, leaving the conversation', async () => {
    const { harness, first } = await twoTurnSession();
    const messagesBefore = (await harness.core.listMessages(harness.session.id)).length;
    const result = await harness.core.restore(harness.session.id, first.turnId, 'files');
    expect(readFileSync(join(harness.workspace, 'a.txt'), 'utf8')).toBe('one\n');
    expect(existsSync(join(harness.workspace, 'b.txt'))).toBe(false);
    expect([...result.restoredPaths].sort()).toEqual(['a.txt', 'b.txt']);
    expect((await harness.core.listMessages(harness.session.id)).length).toBe(messagesBefore);
  });

  it('session: truncates messages and events, restores todos, keeps the files', async () => {
    const { harness, second } = await twoTurnSession();
    await harness.core.restore(harness.session.id, second.turnId, 'session');
    const messages = await harness.core.listMessages(harness.session.id);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(await harness.core.getTodos(harness.session.id)).toEqual([{ content: 'edit a', status: 'completed' }]);
    expect(readFileSync(join(harness.workspace, 'b.txt'), 'utf8')).toBe('created\n');
    expect((await harness.core.listTurns(harness.session.id)).map((turn) => turn.prompt)).toEqual(['first']);
    const events = await harness.events();
    expect(events.at(-1)).toMatchObject({ type: 'session.restored', scope: 'session' });
    expect(events.some((event) => event.turnId === second.turnId && event.type !== 'session.restored')).toBe(false);
  });

  it('all: refuses on a conflict before changing anything, then restores files and session', async () => {
    const { harness, first } = await twoTurnSession();
    writeFileSync(join(harness.workspace, 'a.txt'), 'a person edited this\n');
    const before = snapshotTree(harness.workspace);
    const messageCount = (await harness.core.listMessages(harness.session.id)).length;
    await expect(harness.core.restore(harness.session.id, first.turnId, 'all')).rejects.toMatchObject({
      code: 'checkpoint_conflict',
    });
    expect(snapshotTree(harness.workspace)).toEqual(before);
    expect((await harness.core.listMessages(harness.session.id)).length).toBe(messageCount);

    writeFileSync(join(harness.workspace, 'a.txt'), 'two\n');
    await harness.core.restore(harness.session.id, first.turnId, 'all');
    expect(readFileSync(join(harness.workspace, 'a.txt'), 'utf8')).toBe('one\n');
    expect(await harness.core.listMessages(harness.session.id)).toEqual([]);
    expect(await harness.core.getTodos(harness.session.id)).toEqual([]);
  });

  it('refuses an unknown turn with a clear error', async () => {
    const { harness } = await twoTurnSession();
    await expect(harness.core.restore(harness.session.id, 'no-such-turn', 'files')).rejects.toMatchObject({
      code: 'turn_not_found',
    });
  });
});

describe('fork', () => {
  it('copies history up to a turn; undo in the child leaves the parent restorable', async () => {
    const { harness, first } = await twoTurnSession();
    const child = await harness.core.fork(harness.session.id, { atTurnId: first.turnId });
    expect(child.parentSessionId).toBe(harness.session.id);
    const childMessages = await harness.core.listMessages(child.id);
    expect(
      childMessages
        .filter((message) => message.role === 'user')
        .map((message) => message.role === 'user' && message.text),
    ).toEqual(['first']);
    expect(await harness.core.getTodos(child.id)).toEqual([{ content: 'edit a', status: 'completed' }]);

    // The second turn created b.txt; a.txt is 'two'. Undo turn 1 in the child: a.txt back to 'one'.
    await harness.core.restore(child.id, first.turnId, 'files');
    expect(readFileSync(join(harness.workspace, 'a.txt'), 'utf8')).toBe('one\n');
    const parentPoints = await harness.core.listCheckpoints(harness.session.id);
    expect(parentPoints.every((point) => !point.undone)).toBe(true);
    // The parent's precheck now sees that a.txt changed since its turn: it refuses rather than overwrite.
    await expect(harness.core.restore(harness.session.id, first.turnId, 'files')).rejects.toMatchObject({
      code: 'checkpoint_conflict',
    });
  });
});

describe('fork at an earlier turn', () => {
  it('takes todos and deferred-tool activation from that turn, not from the parent today', async () => {
    const commands = createCommandExecutionService({ sandbox: 'auto' });
    onTestFinished(() => commands.close());
    const harness = await createHarness({
      commands,
      responses: [
        { toolCalls: [call('t1', 'todo_write', { todos: [{ content: 'plan', status: 'in_progress' }] })] },
        { text: 'one' },
        { text: 'two' },
        { toolCalls: [call('t3a', 'search_tools', { query: 'start a dev server in the background' })] },
        { toolCalls: [call('t3b', 'todo_write', { todos: [{ content: 'serve', status: 'in_progress' }] })] },
        { text: 'three' },
        { text: 'four' },
      ],
    });
    const turns = [];
    for (const prompt of ['1', '2', '3', '4'])
      turns.push(await harness.core.runTurn({ sessionId: harness.session.id, prompt }));
    const activationOf = async (sessionId: string): Promise<string[]> => {
      const row = await harness.home.db
        .selectFrom('session')
        .select('activation_json')
        .where('id', '=', sessionId)
        .executeTakeFirstOrThrow();
      return JSON.parse(String(row.activation_json)) as string[];
    };
    expect(await activationOf(harness.session.id)).toContain('start_command');

    const child = await harness.core.fork(harness.session.id, { atTurnId: turns[1]!.turnId });
    expect(await harness.core.getTodos(child.id)).toEqual([{ content: 'plan', status: 'in_progress' }]);
    expect(await activationOf(child.id)).toEqual([]);
  });
});
