import { describe, expect, it } from 'vitest';
import { testdir } from '@clawsmith/test-utils';
import { runTool, testContext, toolNamed } from './__fixtures__/tool-context.js';
import { canPrefilterWholeText } from './regex-prefilter.js';

describe('canPrefilterWholeText', () => {
  it('accepts expressions that cannot match a line terminator or look past a line', () => {
    for (const source of [
      'foo',
      'zq_never_\\w+_qz',
      '^import .* from',
      'end;$',
      '\\bword\\b',
      '[a-z]+\\d{2,}',
      '(?:a|b)+c',
      '(?<year>\\d{4})-\\d\\d',
      'a\\.b\\(c\\)',
      '[\\w.-]+@[\\w.-]+',
    ]) {
      expect(canPrefilterWholeText(source), source).toBe(true);
    }
  });

  it('refuses anything that can match a terminator, looks around, refers back or is not understood', () => {
    for (const source of [
      'a\\sb',
      'a\\Sb',
      '\\W',
      '\\D',
      '[^a]',
      'a\\nb',
      '\\x0a',
      '\\u2028',
      '\\cJ',
      '[\\s\\S]',
      '(?=a)',
      '(?!a)',
      '(?<=a)b',
      '(?<!a)b',
      '(a)\\1',
      '\\12',
      '(?<n>a)\\k<n>',
      '[\t-\r]',
      '[a-\u2029]',
      'a\u2028',
      '[abc',
      'a\\',
    ]) {
      expect(canPrefilterWholeText(source), source).toBe(false);
    }
  });
});

function lineMatches(text: string, pattern: RegExp): number[] {
  return text.split('\n').flatMap((line, index) => (pattern.test(line) ? [index + 1] : []));
}

describe('search_files with a regular expression', () => {
  const text = [
    'alpha beta',
    'foo\rbar',
    'bar',
    '',
    'x end',
    'end',
    'wordy word',
    'foo bar foo',
    '  indented',
    'last',
  ].join('\n');

  it('finds the same lines as matching each line on its own, whether or not the whole text is searched first', async () => {
    const root = testdir({ 'a.txt': text, 'b.txt': `${text}\n` });
    for (const source of [
      '^bar',
      'bar$',
      '^$',
      'end$',
      '\\bword\\b',
      'o+',
      '^\\w+$',
      'x*',
      '(?<!foo)bar',
      'foo\\s',
      '[\\s\\S]ar',
    ]) {
      const result = await runTool(
        toolNamed('search_files'),
        { query: source, regex: true, maxResults: 100 },
        testContext(root),
      );
      const pattern = new RegExp(source);
      const expected = ['a.txt', 'b.txt'].flatMap((name) =>
        lineMatches(name === 'a.txt' ? text : `${text}\n`, pattern).map((line) => `${name}:${line}`),
      );
      const found = result.content
        .split('\n')
        .map((line) => /^(\w\.txt:\d+):/.exec(line)?.[1])
        .filter((line) => line !== undefined);
      expect(found, source).toEqual(expected);
    }
  });

  it('decodes UTF-8 content and ASCII content alike', async () => {
    const root = testdir({ 'a.txt': 'plain ascii line\n', 'b.txt': 'café ☕ line\n\u{1F600} emoji line\n' });
    const result = await runTool(
      toolNamed('search_files'),
      { query: '(ascii|☕|emoji) line', regex: true },
      testContext(root),
    );
    expect(result.content.split('\n').slice(1, 4)).toEqual([
      'a.txt:1: plain ascii line',
      'b.txt:1: café ☕ line',
      'b.txt:2: \u{1F600} emoji line',
    ]);
  });

  it('matches every file it read when the byte budget stops it', async () => {
    const tree: Record<string, string> = {};
    for (let index = 0; index < 20; index += 1) tree[`f${String(index).padStart(2, '0')}.txt`] = 'x'.repeat(100);
    tree['f05.txt'] = 'needle 42';
    const root = testdir(tree);
    const result = await runTool(
      toolNamed('search_files', { limits: { searchBytes: 1_000, searchFileBytes: 1_000 } }),
      { query: 'needle \\d+', regex: true },
      testContext(root),
    );
    expect(result.content).toMatch(/^1 result for the regular expression "needle \\\\d\+":\nf05\.txt:1: needle 42/);
    expect(result.content).toContain('Searched 11 files (1000 bytes read) of 20 files seen.');
    expect(result.display?.fields).toContainEqual({ label: 'stopped by', value: 'bytes' });
  });

  it('keeps results in walk order across batches, stops at the result limit and reuses its worker', async () => {
    const tree: Record<string, string> = {};
    // Enough bytes for several batches in flight at once.
    for (let index = 0; index < 40; index += 1)
      tree[`d${index % 4}/f${String(index).padStart(2, '0')}.txt`] = `${'filler line\n'.repeat(4_000)}hit ${index}\n`;
    const root = testdir(tree);
    const tool = toolNamed('search_files');
    const expectedOrder = Object.keys(tree).sort();
    const first = await runTool(tool, { query: 'hit \\d+', regex: true, maxResults: 5 }, testContext(root));
    expect(first.content.split('\n').slice(1, 6)).toEqual(
      expectedOrder.slice(0, 5).map((path) => `${path}:4001: hit ${Number(path.slice(4, 6))}`),
    );
    expect(first.display?.fields).toContainEqual({ label: 'stopped by', value: 'results' });
    const [all, again] = await Promise.all([
      runTool(tool, { query: 'hit \\d+', regex: true, maxResults: 100 }, testContext(root)),
      runTool(tool, { query: 'filler|hit 39', regex: true, path: 'd3', maxResults: 2 }, testContext(root)),
    ]);
    expect(all.content.split('\n').filter((line) => line.includes(': hit '))).toHaveLength(40);
    expect(all.content).toContain('Searched 40 files');
    expect(again.content.split('\n').slice(1, 3)).toEqual(['d3/f03.txt:1: filler line', 'd3/f03.txt:2: filler line']);
  });

  it('stops cleanly when cancelled with batches in flight, and the next search on the same tool is right', async () => {
    const tree: Record<string, string> = {};
    for (let index = 0; index < 40; index += 1)
      tree[`f${String(index).padStart(2, '0')}.txt`] = `${'filler line\n'.repeat(4_000)}hit ${index}\n`;
    const root = testdir(tree);
    const tool = toolNamed('search_files');
    const controller = new AbortController();
    let checks = 0;
    // Cancelled after a dozen files: several batches are with the worker by then.
    controller.signal.throwIfAborted = () => {
      checks += 1;
      if (checks > 12) controller.abort();
      if (controller.signal.aborted) throw controller.signal.reason;
    };
    expect(
      (
        await runTool(
          tool,
          { query: 'hit \\d+', regex: true, maxResults: 100 },
          testContext(root, { signal: controller.signal }),
        )
      ).status,
    ).toBe('cancelled');
    const after = await runTool(tool, { query: 'hit \\d+', regex: true, maxResults: 100 }, testContext(root));
    expect(after.content.split('\n').filter((line) => line.includes(': hit '))).toHaveLength(40);
  });
});
