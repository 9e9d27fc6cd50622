import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError } from './json-syntax-error.js';

describe('findJsonSyntaxError', () => {
  it('finds nothing wrong where JSON.parse agrees', () => {
    for (const text of ['{}', ' [1, -2.5e3, "a\\u00e9\\n", true, false, null, {"k": []}] ', '"x"', '0']) {
      expect(() => JSON.parse(text)).not.toThrow();
      expect(findJsonSyntaxError(text)).toBeUndefined();
    }
  });

  it.each([
    ['{"a": 1,}', 8, 'expected a double-quoted property name'],
    ['[1, 2,]', 6, 'expected a value'],
    ['{"a" 1}', 5, "expected ':'"],
    ['{"a": 1 "b": 2}', 8, "expected ',' or '}'"],
    ['[1 2]', 3, "expected ',' or ']'"],
    ["{'a': 1}", 1, 'expected a double-quoted property name'],
    ['{"a": "line\nbreak"}', 11, 'control character'],
    ['{"a": "\\x"}', 7, 'invalid escape'],
    ['{"a": 01}', 7, "expected ',' or '}'"],
    ['{"a": tru}', 6, 'expected a value'],
    ['{} {}', 3, 'unexpected text after the end'],
    ['{"a": [1, 2', 11, 'ends too early'],
    ['{"a": "open', 11, 'ends too early'],
  ])('locates the error in %j', (text, offset, reason) => {
    expect(() => JSON.parse(text)).toThrow();
    const error = findJsonSyntaxError(text);
    expect(error?.offset).toBe(offset);
    expect(error?.reason).toContain(reason);
  });
});
