import { describe, expect, it } from 'vitest';
import { promptText } from './prompt-text.js';

describe('promptText', () => {
  it('joins text, turns file links into @paths and embeds attached text with its path', () => {
    expect(
      promptText([
        { type: 'text', text: 'Explain' },
        { type: 'resource_link', uri: 'file:///work/src/a.ts', name: 'a.ts' },
        { type: 'resource', resource: { uri: 'file:///work/b.ts', text: 'const b = 1;' } },
      ]),
    ).toBe('Explain @/work/src/a.ts \n<context path="/work/b.ts">\nconst b = 1;\n</context>');
  });

  it('drops content kinds it does not accept', () => {
    expect(
      promptText([
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'text', text: 'hi' },
      ]),
    ).toBe('hi');
  });
});
