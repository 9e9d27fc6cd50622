import { describe, expect, it } from 'vitest';
import { excerpt, queryTerms, tokenize } from './search-text.js';

describe('tokenize', () => {
  it('splits snake_case, camelCase, acronyms and digits into folded words', () => {
    expect(tokenize('github_create_issue readFileSync parseHTMLDocument v2Api', 1000)).toEqual([
      'github',
      'create',
      'issue',
      'read',
      'file',
      'sync',
      'parse',
      'html',
      'document',
      'v2',
      'api',
    ]);
  });

  it('folds a plural s but keeps a double s', () => {
    expect(tokenize('Issues files process status', 1000)).toEqual(['issue', 'file', 'process', 'statu']);
  });

  it('treats control characters and escape sequences as separators, never as part of a word', () => {
    expect(tokenize('alpha\u0000beta\u001b[31mgamma\u0007delta\r\nepsilon', 1000)).toEqual([
      'alpha',
      'beta',
      '31mgamma',
      'delta',
      'epsilon',
    ]);
  });

  it('reads only the first `limit` characters', () => {
    expect(tokenize('first second third', 10)).toEqual(['first', 'seco']);
  });
});

describe('queryTerms', () => {
  it('drops stop words and duplicates, and caps the number of terms', () => {
    expect(queryTerms('how do I create an issue, create issues', 1000, 16)).toEqual(['create', 'issue']);
    expect(queryTerms('one two three four', 1000, 2)).toEqual(['one', 'two']);
  });

  it('keeps stop words when the query has nothing else', () => {
    expect(queryTerms('the', 1000, 16)).toEqual(['the']);
  });
});

describe('excerpt', () => {
  it('flattens control characters and line breaks and bounds the length', () => {
    expect(excerpt('line one\nline\u0000two\u2028three', 100)).toBe('line one line two three');
    expect(excerpt('x'.repeat(500), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});
