import { describe, expect, it } from 'vitest';
import { bodyLineStats } from './body-line-stats.js';
import { decodeText, lineStats } from './line-diff.js';

function reference(before: string, after: string) {
  return lineStats(decodeText(Buffer.from(before))!, decodeText(Buffer.from(after))!);
}

describe(bodyLineStats, () => {
  it('counts exactly what the whole-text diff counts, for edits anywhere in the file', () => {
    const base = Array.from({ length: 3000 }, (_, index) => `line ${index} ${'é'.repeat(index % 7)}`).join('\n');
    const cases: [string, string][] = [
      [base, base],
      [base, `${base}\n`],
      [`${base}\n`, base],
      [base, base.replace('line 1500 ', 'line 1500 changed ')],
      [base, base.replace('line 0 ', 'first ')],
      [base, `${base}x`],
      [base, base.replace('line 2999', 'line 2999\nadded\nmore')],
      [base, base.replace('line 10 ', '').replace('line 2000 ', 'x')],
      ['', base],
      [base, ''],
      ['a\n', 'a\nb\n'],
      ['a\nb', 'a\nbc\n'],
      ['x\ny\nx\ny\n', 'x\ny\n'],
      ['same\nsame\n', 'same\nsame\nsame\n'],
      ['\n\n\n', '\n\n'],
      ['\uFEFFa\nb\n', 'a\nb\n'],
      ['\uFEFFa\nb\n', '\uFEFFa\nc\n'],
    ];
    for (const [before, after] of cases) {
      expect(bodyLineStats(Buffer.from(before), Buffer.from(after))).toEqual({
        binary: false,
        ...reference(before, after),
      });
    }
  });

  it('agrees with the whole-text diff on random small edits', () => {
    let seed = 7;
    const random = (limit: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % limit;
    };
    const alphabet = ['a\n', 'b\n', 'c', '\n', 'ab\n', 'é\n'];
    for (let round = 0; round < 500; round += 1) {
      const before = Array.from({ length: random(30) }, () => alphabet[random(alphabet.length)]).join('');
      let after = before;
      for (let edit = 0; edit < 1 + random(3); edit += 1) {
        const at = random(after.length + 1);
        after = `${after.slice(0, at)}${alphabet[random(alphabet.length)]}${after.slice(at + random(3))}`;
      }
      expect(bodyLineStats(Buffer.from(before), Buffer.from(after))).toEqual({
        binary: false,
        ...reference(before, after),
      });
    }
  });

  it('calls a body with a NUL byte or invalid UTF-8 binary', () => {
    expect(bodyLineStats(Buffer.from('a\0b'), Buffer.from('a'))).toEqual({ binary: true });
    expect(bodyLineStats(Buffer.from('a'), Buffer.from([0x61, 0xff, 0x0a]))).toEqual({ binary: true });
  });
});
