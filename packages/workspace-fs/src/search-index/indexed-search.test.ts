import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testdir } from '@clawsmith/test-utils';
import { indexedWorkspace } from './__fixtures__/indexed-workspace.js';
import { parseStoredIndex, postingsOf, TrigramCollector } from '@clawsmith/search-index';

function lines(content: string): string[] {
  return content.split('\n').filter((line) => /^\S+:\d+: /.test(line) || line.endsWith('(file name matches)'));
}

describe('search_files with a search index', () => {
  it('searches only candidate files, verified against their content, and says what the index covered', async () => {
    const root = testdir({
      'a/one.ts': 'const alpha = 1;\n',
      'a/two.ts': 'export function rareIdentifierXyz() {}\n',
      'b/three.ts': 'rare identifier xyz, but not together\n',
      'b/rareIdentifierXyz.md': 'named after it',
      'node_modules/dep/index.js': 'rareIdentifierXyz in a skipped folder\n',
    });
    const workspace = indexedWorkspace(root);
    await workspace.ready();
    const result = await workspace.search({ query: 'rareIdentifierXyz' });
    expect(lines(result.content)).toEqual([
      'a/two.ts:1: export function rareIdentifierXyz() {}',
      'b/rareIdentifierXyz.md: (file name matches)',
    ]);
    expect(result.content).toContain('Used the search index: searched 2 of 2 candidate files');
    expect(result.content).toContain('of 4 indexed; no other file can match.');
    const ignoring = await workspace.search({ query: 'RAREIDENTIFIERXYZ', ignoreCase: true });
    expect(lines(ignoring.content)).toHaveLength(2);
  });

  it('narrows a regular expression by its required literals and falls back to the walk without one', async () => {
    const root = testdir({
      'x.ts': 'ts.getNewLineCharacter(options)\n',
      'y.ts': 'getNewLine only\n',
      'z.ts': 'nothing\n',
    });
    const workspace = indexedWorkspace(root);
    await workspace.ready();
    const regex = await workspace.search({ query: 'getNewLine\\w+', regex: true });
    expect(lines(regex.content)).toEqual(['x.ts:1: ts.getNewLineCharacter(options)']);
    expect(regex.content).toContain('searched 2 of 2 candidate files');
    const alternation = await workspace.search({ query: '(nothing|only)$', regex: true });
    expect(lines(alternation.content)).toEqual(['y.ts:1: getNewLine only', 'z.ts:1: nothing']);
    const noLiteral = await workspace.search({ query: '\\w+Z', regex: true });
    expect(noLiteral.content).toContain(
      'The search index was not used: the expression requires no literal text of three or more characters.',
    );
    expect(noLiteral.content).toContain('Searched 3 files');
    const short = await workspace.search({ query: 'ts' });
    expect(short.content).toContain('The search index was not used: the query is shorter than three characters.');
  });

  it('keeps every budget: a candidate list longer than the budget stops honestly', async () => {
    const tree: Record<string, string> = {};
    for (let index = 0; index < 30; index += 1) tree[`f${String(index).padStart(2, '0')}.txt`] = 'common text\n';
    tree['other.txt'] = 'unrelated';
    const root = testdir(tree);
    const workspace = indexedWorkspace(root, { limits: { searchFiles: 10 } });
    await workspace.ready();
    const result = await workspace.search({ query: 'common' });
    expect(lines(result.content)).toHaveLength(10);
    expect(result.content).toContain('Used the search index: searched 10 of 30 candidate files');
    expect(result.content).toContain('the 10-file limit was reached; 20 candidate files were not searched');
  });

  it('searches a sub-folder and an include glob through the index', async () => {
    const root = testdir({ 'src/a.ts': 'needle', 'src/b.js': 'needle', 'docs/c.md': 'needle', 'src-x/d.ts': 'needle' });
    const workspace = indexedWorkspace(root);
    await workspace.ready();
    expect(lines((await workspace.search({ query: 'needle', path: 'src' })).content)).toEqual([
      'src/a.ts:1: needle',
      'src/b.js:1: needle',
    ]);
    expect(lines((await workspace.search({ query: 'needle', include: '*.ts' })).content)).toEqual([
      'src/a.ts:1: needle',
      'src-x/d.ts:1: needle',
    ]);
  });

  it('stores, per file, exactly the trigrams the in-process collector finds (names, binaries, folded letters, texts of 0-3 bytes)', async () => {
    const root = testdir({
      'plain.txt': 'Hello World, hello again\n',
      'kelvin.txt': 'temperature in \u212Aelvin and \u017Fharp \u0130stanbul\n',
      'binary.bin': Buffer.from([0x61, 0x62, 0x63, 0, 0x64, 0x65, 0x66]),
      'Ünïcode-名前.md': 'ünïcode text',
      'empty.txt': '',
      ab: 'ab',
      c: 'c',
      'cut-kelvin.txt': Buffer.from([0x61, 0x62, 0x63, 0xe2, 0x84]),
      'ends-in-long-s.txt': 'ends in \u017F',
      [`${'long-name-'.repeat(24)}.txt`]: 'LONG NAME',
    });
    const workspace = indexedWorkspace(root);
    await workspace.ready();
    const [folder] = readdirSync(workspace.home);
    const bytes = readFileSync(`${workspace.home}/${folder}/index.bin`);
    const stored = parseStoredIndex(bytes.buffer.slice(bytes.byteOffset + 64, bytes.byteOffset + bytes.length));
    const collector = new TrigramCollector();
    for (const [number, path] of stored.filePaths.entries()) {
      const content = readFileSync(`${root}/${path}`);
      if (!content.subarray(0, 8_000).includes(0)) collector.add(content);
      collector.add(Buffer.from(path.split('/').pop()!, 'utf8'));
      const expected = [...collector.take()];
      const actual = [...stored.trigrams].filter((trigram) => postingsOf(stored, trigram).includes(number));
      expect(actual, path).toEqual(expected);
    }
    expect((await workspace.search({ query: 'KELVIN', ignoreCase: true })).content).toContain('kelvin.txt:1:');
    expect((await workspace.search({ query: 'def' })).content).toMatch(/^No results/);
    expect((await workspace.search({ query: 'binary' })).content).toContain('binary.bin: (file name matches)');
    writeFileSync(`${root}/plain.txt`, 'changed');
  });
  it('counts every file as holding a key the index left out as common, changed files too', async () => {
    // 2,100 files (enough for common keys): all hold "shared marker", one in thirty "zqxjvw".
    const tree: Record<string, string> = {};
    for (let number = 0; number < 2100; number += 1)
      tree[`src/f${number}.txt`] = `shared marker ${number}\n${number % 30 === 0 ? 'zqxjvw shared\n' : ''}`;
    const root = testdir(tree);
    const workspace = indexedWorkspace(root, { watch: false });
    await workspace.ready();
    // All of its keys are common: every file is a candidate (the first 100 hold it and end the search).
    const common = await workspace.search({ query: 'shared marker', maxResults: 100 });
    expect(common.content).toContain('Used the search index: searched 100 of 2,100 candidate files');
    expect(lines(common.content)).toHaveLength(100);
    // Common keys and rare ones: the rare ones narrow it to their files.
    const mixed = await workspace.search({ query: 'zqxjvw shared', maxResults: 100 });
    expect(mixed.content).toContain('searched 70 of 70 candidate files');
    expect(lines(mixed.content)).toHaveLength(70);
    // A file changed since the build is searched when it holds the literal's other keys.
    writeFileSync(`${root}/src/f1.txt`, 'zqxjvw shared, now\n');
    const changed = await workspace.search({ query: 'zqxjvw shared', maxResults: 100 });
    expect(lines(changed.content)).toContain('src/f1.txt:1: zqxjvw shared, now');
    expect(lines(changed.content)).toHaveLength(71);
  });
});
