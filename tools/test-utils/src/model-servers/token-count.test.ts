import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { LONG_SESSION_FILES } from './long-session-scenario.js';
import { countTokens } from './token-count.js';

const encoder = new Tiktoken(o200k);

// Texts where the tokenizer's pattern depends on what follows a piece: runs of spaces before a
// word, a digit or punctuation, at the end of a line and of the text; contractions; long digit
// runs; letters with marks and scripts without spaces; JSON with escapes as the server sees it.
const TRICKY = [
  '',
  ' ',
  'word',
  'a  b   c    1     !      \n       ',
  "  It's   they'll    we'D     I'M  don't",
  'value=31031 12345678901 3.14159 -42 1e10',
  '\n\n  \r\n\t\tindented\n    code();\n\t}\n',
  'naïve café — Zürich, Ångström; 東京都の天気は晴れ。 Привет, мир! 😀👍🏽 e\u0301',
  JSON.stringify({ role: 'tool', content: 'line 1\nline 2\t"quoted" \\ back\\slash', id: 'call_0_1' }),
  `${'x'.repeat(64)} ${'ab'.repeat(40)}!!!???...   `,
];

describe('countTokens', () => {
  it('counts exactly what encode() counts, text by text', () => {
    const texts = [...TRICKY, ...Object.values(LONG_SESSION_FILES), TRICKY.join(''), TRICKY.join(' ')];
    expect(texts.map(countTokens)).toEqual(texts.map((text) => encoder.encode(text).length));
    // Counted again from the remembered pieces: the same.
    expect(texts.map(countTokens)).toEqual(texts.map((text) => encoder.encode(text).length));
  });

  it('refuses a special token the way encode() does', () => {
    const text = 'before <|endoftext|> after';
    expect(() => encoder.encode(text)).toThrow(/special token/);
    expect(() => countTokens(text)).toThrow(/special token/);
    expect(countTokens('a <| b')).toBe(encoder.encode('a <| b').length);
  });
});
