import { describe, expect, it } from 'vitest';
import { collectModelResponse } from './collect-model-response.js';
import type { ModelStreamEvent } from './model-stream.js';

async function* from(events: readonly ModelStreamEvent[]): AsyncGenerator<ModelStreamEvent> {
  yield* events;
}

describe('collectModelResponse', () => {
  it('joins text, keeps tool calls in order and takes the last usage', async () => {
    expect(
      await collectModelResponse(
        from([
          { type: 'text-delta', text: 'a' },
          { type: 'tool-call', toolCall: { id: '1', name: 'x', argumentsText: '{' } },
          { type: 'text-delta', text: 'b' },
          { type: 'tool-call', toolCall: { id: '2', name: 'y', argumentsText: '{}' } },
          { type: 'usage', usage: { inputTokens: 1, outputTokens: 2 } },
          { type: 'finish', reason: 'tool-calls' },
        ]),
      ),
    ).toEqual({
      text: 'ab',
      toolCalls: [
        { id: '1', name: 'x', argumentsText: '{' },
        { id: '2', name: 'y', argumentsText: '{}' },
      ],
      usage: { inputTokens: 1, outputTokens: 2 },
      finishReason: 'tool-calls',
    });
  });

  it('refuses a stream without a finish event', async () => {
    await expect(collectModelResponse(from([{ type: 'text-delta', text: 'a' }]))).rejects.toMatchObject({
      code: 'provider_protocol_error',
    });
  });

  it('lets a thrown error through unchanged', async () => {
    const failure = new Error('boom');
    async function* failing(): AsyncGenerator<ModelStreamEvent> {
      yield { type: 'text-delta', text: 'a' };
      throw failure;
    }
    await expect(collectModelResponse(failing())).rejects.toBe(failure);
  });
  it('hands each text piece to onTextDelta as it arrives', async () => {
    const pieces: string[] = [];
    const response = await collectModelResponse(
      from([
        { type: 'text-delta', text: 'he' },
        { type: 'text-delta', text: 'llo' },
        { type: 'finish', reason: 'length' },
      ]),
      { onTextDelta: (text) => pieces.push(text) },
    );
    expect(pieces).toEqual(['he', 'llo']);
    expect(response).toMatchObject({ text: 'hello', finishReason: 'length' });
  });
});
