import type { ModelStreamEvent, Provider } from '@clawsmith/providers';
import { describe, expect, it } from 'vitest';
import { call, createHarness } from './__fixtures__/core-harness.js';

describe('how the model ended its answer decides how the turn ends', () => {
  it('ends incomplete with model_output_truncated at the token limit, closing the unrun calls', async () => {
    const harness = await createHarness({
      files: { 'a.txt': 'alpha\n' },
      permissionMode: 'full-auto',
      responses: [
        { toolCalls: [call('r1', 'read_file', { path: 'a.txt' })] },
        {
          text: 'Now I will write',
          toolCalls: [call('w1', 'write_file', { path: 'b.txt', content: 'x' })],
          finishReason: 'length',
        },
        { text: 'never asked' },
      ],
    });
    const result = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'go' });
    expect(result.status).toBe('incomplete');
    expect(result.error).toMatchObject({ code: 'model_output_truncated' });
    expect((await harness.eventsOf('tool.started')).map((event) => event.toolCallId)).toEqual(['r1']);
    const closed = (await harness.eventsOf('tool.completed')).find((event) => event.toolCallId === 'w1');
    expect(closed?.result).toMatchObject({ status: 'error', code: 'model_output_truncated' });
    const [turn] = await harness.core.listTurns(harness.session.id);
    expect(turn?.status).toBe('incomplete');
    const completed = (await harness.eventsOf('turn.completed'))[0];
    expect(completed).toMatchObject({ status: 'incomplete', error: { code: 'model_output_truncated' } });
  });

  it('fails when the provider ended the answer itself (content filter, refusal)', async () => {
    const harness = await createHarness({ responses: [{ text: 'I cannot', finishReason: 'error' }] });
    const result = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'go' });
    expect(result.status).toBe('failed');
    expect(result.error).toMatchObject({ code: 'model_response_refused' });
  });

  it('fails with provider_protocol_error when a stream ends without a finish event', async () => {
    const provider: Provider = {
      name: 'cut-off',
      model: 'cut-off',
      async *stream(): AsyncGenerator<ModelStreamEvent> {
        yield { type: 'text-delta', text: 'half an ans' };
      },
    };
    const harness = await createHarness({ responses: [] });
    const core = (await import('./agent-core.js')).createAgentCore({
      db: harness.home.db,
      checkpoints: harness.home.checkpoints,
      provider,
      builtinTools: [],
    });
    const result = await core.runTurn({ sessionId: harness.session.id, prompt: 'go' });
    expect(result.status).toBe('failed');
    expect(result.error).toMatchObject({ code: 'provider_protocol_error' });
  });

  it('streams text to onTextDelta through the providers collection', async () => {
    const harness = await createHarness({ responses: [{ text: 'hello there' }] });
    const pieces: string[] = [];
    const result = await harness.core.runTurn({
      sessionId: harness.session.id,
      prompt: 'go',
      onTextDelta: (text) => pieces.push(text),
    });
    expect(result.status).toBe('completed');
    expect(pieces.join('')).toBe('hello there');
  });
});
