import { describe, expect, it } from 'vitest';
import { call, createHarness } from '../__fixtures__/core-harness.js';

describe('todo_write and todo_list', () => {
  it('replace the whole list, persist it in session_todos, and read it back', async () => {
    const harness = await createHarness({
      responses: [
        {
          toolCalls: [
            call('w1', 'todo_write', {
              todos: [
                { content: 'plan', status: 'completed' },
                { content: 'build', status: 'in_progress' },
                { content: 'ship', status: 'pending' },
              ],
            }),
          ],
        },
        { toolCalls: [call('w2', 'todo_write', { todos: [{ content: 'ship', status: 'in_progress' }] })] },
        { toolCalls: [call('r1', 'todo_list', {})] },
        { text: 'ok' },
      ],
    });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'plan' });
    expect(await harness.core.getTodos(harness.session.id)).toEqual([{ content: 'ship', status: 'in_progress' }]);
    const rows = await harness.home.db.selectFrom('session_todos').selectAll().execute();
    expect(rows).toHaveLength(1);
    const messages = await harness.core.listMessages(harness.session.id);
    const listed = messages.find((message) => message.role === 'tool' && message.toolCallId === 'r1');
    expect(listed).toMatchObject({ content: '1. [~] ship' });
    expect((await harness.eventsOf('todos.updated')).length).toBe(2);
  });

  it('refuses two items in progress and an empty item, leaving the list as it was', async () => {
    const harness = await createHarness({
      responses: [
        { toolCalls: [call('w1', 'todo_write', { todos: [{ content: 'a', status: 'pending' }] })] },
        {
          toolCalls: [
            call('w2', 'todo_write', {
              todos: [
                { content: 'a', status: 'in_progress' },
                { content: 'b', status: 'in_progress' },
              ],
            }),
          ],
        },
        { toolCalls: [call('w3', 'todo_write', { todos: [{ content: '   ', status: 'pending' }] })] },
        { text: 'ok' },
      ],
    });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'plan' });
    const results = Object.fromEntries(
      (await harness.eventsOf('tool.completed')).map((event) => [event.toolCallId, event.result]),
    );
    expect(results.w2).toMatchObject({ status: 'error', code: 'todo_invalid' });
    expect(results.w3).toMatchObject({ status: 'error', code: 'invalid_arguments' });
    expect(await harness.core.getTodos(harness.session.id)).toEqual([{ content: 'a', status: 'pending' }]);
  });
});
