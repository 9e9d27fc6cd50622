import { describe, expect, it } from 'vitest';
import { toAnthropicConversation } from './anthropic-messages.js';

describe('toAnthropicConversation', () => {
  it('sends arguments that are not a JSON object as an empty input, and drops empty turns', () => {
    const conversation = toAnthropicConversation(
      [
        { role: 'user', text: 'go' },
        { role: 'assistant', text: '', toolCalls: [] },
        { role: 'user', text: '' },
        { role: 'user', text: 'again' },
        {
          role: 'assistant',
          text: '',
          toolCalls: [
            { id: 't1', name: 'edit_file', argumentsText: '{"path": "a.txt"' },
            { id: 't2', name: 'edit_file', argumentsText: '[1]' },
          ],
        },
      ],
      undefined,
    );
    expect(conversation).toEqual({
      system: undefined,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'go' },
            { type: 'text', text: 'again' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 't1', name: 'edit_file', input: {} },
            { type: 'tool_use', id: 't2', name: 'edit_file', input: {} },
          ],
        },
      ],
    });
  });
});
