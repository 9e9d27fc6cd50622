import { describe, expect, it } from 'vitest';
import { askElicitation } from './elicitation-prompt.js';

function terminal(answers: (string | null)[]) {
  const said: string[] = [];
  const asked: string[] = [];
  return {
    said,
    asked,
    say: (text: string) => void said.push(text),
    ask: async (prompt: string) => {
      asked.push(prompt);
      return answers.length > 0 ? (answers.shift() as string | null) : null;
    },
  };
}

const request = {
  server: 'deploys',
  message: 'Deploy to\nstaging?',
  requestedSchema: {
    type: 'object',
    properties: {
      confirm: { type: 'boolean', title: 'Deploy now' },
      replicas: { type: 'integer', description: 'how many' },
      region: { type: 'string', enum: ['eu', 'us'] },
      note: { type: 'string' },
    },
    required: ['confirm', 'replicas', 'region'],
  },
};

describe('askElicitation', () => {
  it('asks each field, re-asks what does not fit, and accepts with typed content', async () => {
    const io = terminal(['y', 'maybe', 'y', '2.5', '3', 'asia', 'eu', '']);
    expect(await askElicitation(request, io)).toEqual({
      action: 'accept',
      content: { confirm: true, replicas: 3, region: 'eu' },
    });
    expect(io.said[0]).toBe('? MCP server deploys asks: Deploy to staging?');
    expect(io.asked).toEqual([
      '  Answer? [y]es / [n]o (decline): ',
      '  Deploy now [y/n]: ',
      '  Deploy now [y/n]: ',
      '  replicas (how many) (a number): ',
      '  replicas (how many) (a number): ',
      '  region [eu / us]: ',
      '  region [eu / us]: ',
      '  note (optional): ',
    ]);
  });

  it('declines when the person says no, and gives nothing back at the end of input', async () => {
    expect(await askElicitation(request, terminal(['n']))).toEqual({ action: 'decline' });
    expect(await askElicitation(request, terminal(['y', 'y', null]))).toBeUndefined();
  });
});
