import { describe, expect, it } from 'vitest';
import { call, createHarness } from '../__fixtures__/core-harness.js';
import type { SessionEvent } from '../store/session-records.js';

function completedResults(events: SessionEvent[]) {
  return events
    .filter((event) => event.type === 'tool.completed')
    .map((event) => ({ id: event.toolCallId as string, ...(event.result as { status: string; code?: string }) }));
}

describe('protocol bounds on one assistant message', () => {
  it('runs the first 100 of 10,000 calls, answers every other one with too_many_tool_calls, and the session goes on', async () => {
    const calls = Array.from({ length: 10_000 }, (_, index) =>
      call(`c${index}`, 'read_file', { path: `f${index}.txt` }),
    );
    const harness = await createHarness({
      // The bounds are under test, not compaction: 10,000 results must not be compacted away.
      contextWindow: 100_000_000,
      files: { 'a.txt': 'alpha\n' },
      responses: [
        { toolCalls: calls },
        { text: 'Done.' },
        { toolCalls: [call('n1', 'read_file', { path: 'a.txt' })] },
        { text: 'Again.' },
      ],
    });
    const first = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'many' });
    expect(first).toMatchObject({ status: 'completed', text: 'Done.' });
    const results = completedResults(await harness.events());
    expect(results).toHaveLength(10_000);
    // The admitted calls ran (the files do not exist, so read_file answers each with its own code).
    expect(results.slice(0, 100).every((result) => result.code !== 'too_many_tool_calls')).toBe(true);
    expect(results.slice(100).every((result) => result.code === 'too_many_tool_calls')).toBe(true);
    expect(new Set(results.map((result) => result.id)).size).toBe(10_000);
    const messages = await harness.core.listMessages(harness.session.id);
    expect(messages.filter((message) => message.role === 'tool')).toHaveLength(10_000);

    const second = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'again' });
    expect(second).toMatchObject({ status: 'completed', text: 'Again.' });
    const last = completedResults(await harness.events()).at(-1);
    expect(last).toMatchObject({ id: 'n1', status: 'success' });
  }, 120_000);

  it('refuses a 100,000-character call id and an oversized tool name with invalid_tool_call, and the store stays intact', async () => {
    const longId = 'x'.repeat(100_000);
    const harness = await createHarness({
      // The bounds are under test, not compaction: 10,000 results must not be compacted away.
      contextWindow: 100_000_000,
      files: { 'a.txt': 'alpha\n' },
      responses: [
        {
          toolCalls: [call(longId, 'read_file', { path: 'a.txt' }), call('named', 'r'.repeat(5_000), {})],
        },
        { text: 'Done.' },
        { toolCalls: [call('ok', 'read_file', { path: 'a.txt' })] },
        { text: 'Again.' },
      ],
    });
    const first = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'long' });
    expect(first.status).toBe('completed');
    const results = completedResults(await harness.events());
    expect(results.map(({ status, code }) => ({ status, code }))).toEqual([
      { status: 'error', code: 'invalid_tool_call' },
      { status: 'error', code: 'invalid_tool_call' },
    ]);
    expect(results[0]!.id).toBe(longId);
    expect((await harness.eventsOf('tool.started')).length).toBe(0);
    const tools = (await harness.core.listMessages(harness.session.id)).filter((message) => message.role === 'tool');
    expect(tools.map((message) => ('toolCallId' in message ? message.toolCallId : undefined))).toEqual([
      longId,
      'named',
    ]);

    const second = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'again' });
    expect(second).toMatchObject({ status: 'completed', text: 'Again.' });
    expect(completedResults(await harness.events()).at(-1)).toMatchObject({ id: 'ok', status: 'success' });
  });
});
