import { describe, expect, it } from 'vitest';
import { call, createHarness } from '../__fixtures__/core-harness.js';

describe('token budgets', () => {
  it('stops a turn before a request that would pass maxTurnTokens, with every earlier call closed', async () => {
    const harness = await createHarness({
      files: { 'a.txt': 'x'.repeat(30_000) },
      maxTurnTokens: 15_000,
      responses: [
        { toolCalls: [call('r1', 'read_file', { path: 'a.txt' })], usage: { inputTokens: 6_000, outputTokens: 50 } },
        { text: 'never sent' },
      ],
    });
    const result = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'read a' });
    expect(result.status).toBe('incomplete');
    expect(result.error).toMatchObject({ code: 'token_budget_exceeded', retryable: false });
    expect(result.error!.message).toMatch(/turn token budget of 15,000 would be passed.*Raise --max-turn-tokens/);
    expect(await harness.eventsOf('request.started')).toHaveLength(1);
    expect((await harness.eventsOf('tool.completed')).map((event) => event.toolCallId)).toEqual(['r1']);
    expect((await harness.eventsOf('turn.completed'))[0]).toMatchObject({
      status: 'incomplete',
      usage: { inputTokens: 6_000, outputTokens: 50 },
    });
  });
});
