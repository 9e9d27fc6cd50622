import { describe, expect, it } from 'vitest';
import { regexQuery } from './regex-query.js';
import { describeQuery, literalQuery, satisfies } from './trigram-query.js';
import { hasTrigram, TrigramCollector } from './trigrams.js';

describe(regexQuery, () => {
  it.each([
    ['getNewLine\\w+', '"get" AND "etn" AND "tne" AND "new" AND "ewl" AND "wli" AND "lin" AND "ine"'],
    ['\\w+Z', 'ALL'],
    [
      '(get|set)Value',
      '("get" AND "etv" AND "tva" AND "val" AND "alu" AND "lue") OR ("set" AND "etv" AND "tva" AND "val" AND "alu" AND "lue")',
    ],
    ['ab[cd]', '"abc" OR "abd"'],
    ['foo.*bar', '"foo" AND "bar"'],
    ['colou?r', '("col" AND "olo" AND "lou" AND "our") OR ("col" AND "olo" AND "lor")'],
    ['(?:abc)+def', '"abc" AND "def"'],
    ['x(?=yz)abc', '"xab" AND "abc"'],
    ['foo\\x41bar', 'ALL'],
    ['foo\\1bar', 'ALL'],
    ['a{2}bcd', '"bcd"'],
    ['\\bword\\b', '"wor" AND "ord"'],
    ['[a-z]+ing', '"ing"'],
    ['über', '"ber"'],
    ['é+xyz', '"xyz"'],
  ])('%s needs %s', (source, expected) => {
    expect(describeQuery(regexQuery(source))).toBe(expected);
  });

  // Soundness: whenever the expression matches a line, the line's trigrams satisfy the query.
  it('never rules out a line the expression matches', () => {
    const sources = [
      'getNewLine\\w+',
      '(get|set)Value',
      'ab[cd]e?f',
      'foo.*bar',
      'colou?r',
      'x(?=yz)yzabc',
      'a{2,}bcd',
      '\\bword\\b',
      '(a|bc|def)(gh|ijk)',
      '[xyz]{3}',
      'q?rst|uvw',
      'hello(?! world)',
      'FOO\\.bar',
      'a\\/b\\-c',
      '(?<name>abc)def',
      '^import .* from',
      'x*yz+w',
      'ba(na)+s',
      '\\d+px',
      'ab|cd|ef|gh',
    ];
    const alphabet = 'abcdefghijklmnopqrstuvwxyzFOBAR. /-_0123456789';
    let seed = 7;
    const random = (limit: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % limit;
    };
    const collector = new TrigramCollector();
    let matched = 0;
    for (const source of sources) {
      const regex = new RegExp(source, 'i');
      const query = regexQuery(source);
      const samples = [
        ...source.replace(/[\\()[\]?*+|{}^$.<>=!]/g, '').split(''),
        'getNewLineCharacter',
        'banana',
        'colour',
      ];
      for (let trial = 0; trial < 1_000; trial += 1) {
        let line = '';
        const length = random(14);
        for (let index = 0; index < length; index += 1)
          line += random(3) === 0 ? alphabet[random(alphabet.length)] : samples[random(samples.length)];
        if (!regex.test(line)) continue;
        matched += 1;
        collector.add(Buffer.from(line));
        const trigrams = collector.take();
        expect(
          satisfies(query, (trigram) => hasTrigram(trigrams, trigram)),
          `${source} on ${line}`,
        ).toBe(true);
      }
    }
    expect(matched).toBeGreaterThan(400);
  });
});

describe(literalQuery, () => {
  it('requires trigrams (no quadgrams since format 4), only ASCII ones when case is ignored', () => {
    expect(describeQuery(literalQuery('Abcde', false))).toBe('"abc" AND "bcd" AND "cde"');
    expect(describeQuery(literalQuery('Abcde', true))).toBe('"abc" AND "bcd" AND "cde"');
    expect(literalQuery('aé', true)).toEqual({ kind: 'all' });
    expect(literalQuery('xyzé', true)).toEqual(literalQuery('xyz', true));
    expect(literalQuery('xyzé', false).kind).toBe('and');
  });

  it('requires the eight bytes around each word joint of a case-sensitive literal, never when case is ignored', () => {
    const joints = (text: string, ignoreCase: boolean) =>
      describeQuery(literalQuery(text, ignoreCase))
        .split(' AND ')
        .filter((part) => part.length === 10);
    expect(joints('certificateDetail', false)).toEqual(['"cateDeta"']);
    // "X_" has too few bytes before it for eight.
    expect(joints('MAX_PAYLOAD_SIZE', false)).toEqual(['"MAX_PAYL"', '"LOAD_SIZ"', '"OAD_SIZE"']);
    expect(joints('certificateDetail', true)).toEqual([]);
    expect(joints('shortJoint', false)).toEqual(['"hortJoin"']);
    expect(joints('aJoint', false)).toEqual([]);
  });
});
