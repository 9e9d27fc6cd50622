import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, statSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testdir } from '@clawsmith/test-utils';
import { runTool, testContext, toolNamed } from './__fixtures__/tool-context.js';
import type { WorkspaceToolsOptions } from './tool-options.js';

function search(root: string, input: Record<string, unknown>, options: WorkspaceToolsOptions = {}) {
  return runTool(toolNamed('search_files', options), input, testContext(root));
}

describe('search_files', () => {
  it('finds content lines and file names in a stable order, with a search display', async () => {
    const root = testdir({
      'src/b.ts': 'const x = 1;\nconst needle = 2;\n',
      'src/a.ts': 'needle here\n',
      'src/needle.md': 'nothing',
    });
    const result = await search(root, { query: 'needle' });
    expect(result.status).toBe('success');
    expect(result.content.split('\n\n')[0]).toBe(
      [
        '3 results for "needle":',
        'src/a.ts:1: needle here',
        'src/b.ts:2: const needle = 2;',
        'src/needle.md: (file name matches)',
      ].join('\n'),
    );
    expect(result.content).toContain('Searched 3 files');
    expect(result.display).toMatchObject({ kind: 'search', title: 'Search "needle": 3 results' });
  });

  it('returns an explicit no-results success when the whole workspace was searched', async () => {
    const root = testdir({ 'a.txt': 'alpha' });
    const result = await search(root, { query: 'omega' });
    expect(result.status).toBe('success');
    expect(result.content).toBe('No results for "omega".\n\nSearched 1 file (5 bytes read) of 1 file seen.');
  });

  it('matches regular expressions line by line and ignores case when asked', async () => {
    const root = testdir({ 'a.txt': 'Foo1\nfoo22\nbar\n' });
    expect((await search(root, { query: 'foo\\d{2}', regex: true })).content).toContain('a.txt:2: foo22');
    const ignoring = await search(root, { query: 'FOO', ignoreCase: true });
    expect(ignoring.content).toContain('a.txt:1: Foo1');
    expect(ignoring.content).toContain('a.txt:2: foo22');
    expect((await search(root, { query: 'FOO' })).content).toMatch(/^No results/);
    expect(await search(root, { query: '(unclosed', regex: true })).toMatchObject({
      status: 'error',
      code: 'invalid_pattern',
    });
  });

  it('searches only under a sub-path or files matching an include glob, and refuses escaping ones', async () => {
    const root = testdir({ 'src/a.ts': 'hit', 'src/b.js': 'hit', 'docs/c.md': 'hit' });
    expect((await search(root, { query: 'hit', path: 'src' })).content).not.toContain('docs/');
    const included = await search(root, { query: 'hit', include: '*.ts' });
    expect(included.content.split('\n').filter((line) => line.includes(': hit'))).toEqual(['src/a.ts:1: hit']);
    expect((await search(root, { query: 'hit', include: 'docs/**' })).content).toContain('docs/c.md:1: hit');
    expect((await search(root, { query: 'hit', path: 'src/a.ts' })).content).toContain('Searched 1 file');
    expect(await search(root, { query: 'hit', path: '../' })).toMatchObject({ code: 'path_outside_workspace' });
    expect(await search(root, { query: 'hit', include: '../**' })).toMatchObject({ code: 'invalid_pattern' });
    expect(await search(root, { query: 'hit', path: 'nowhere' })).toMatchObject({ code: 'file_not_found' });
  });

  it('skips dependency and build folders, never follows symlinks and never opens FIFOs', async () => {
    const outside = testdir({ 'secret.txt': 'hit outside' });
    const root = testdir({
      'src/a.txt': 'hit',
      'node_modules/x/a.txt': 'hit',
      '.git/config': 'hit',
      'dist/a.txt': 'hit',
      'coverage/a.txt': 'hit',
      'generated/a.txt': 'hit',
      'out-link': { symlink: outside },
      'file-link.txt': { symlink: 'src/a.txt' },
    });
    execFileSync('mkfifo', [join(root, 'src/pipe')]);
    const result = await search(root, { query: 'hit' }, { skippedFolders: ['generated'] });
    expect(result.content.split('\n').filter((line) => line.includes(': hit'))).toEqual(['src/a.txt:1: hit']);
    expect(result.content).toContain('5 skipped folders');
    expect(result.content).toContain('3 symlinks or special files not followed');
    const fifo = await search(root, { query: 'hit', path: 'src/pipe' });
    expect(fifo.content).toBe(
      'No results for "hit" under src/pipe.\n\nSearched 0 files (0 bytes read) of 1 file seen.\nAlso: 1 symlink or special file not followed.',
    );
  });

  it('stops at the byte budget and says which limit stopped it, what it covered and how to narrow', async () => {
    const tree: Record<string, string> = {};
    for (let index = 0; index < 20; index += 1) tree[`f${String(index).padStart(2, '0')}.txt`] = 'x'.repeat(100);
    tree['f19.txt'] = 'needle';
    const root = testdir(tree);
    const result = await search(root, { query: 'needle' }, { limits: { searchBytes: 1_000, searchFileBytes: 1_000 } });
    expect(result.status).toBe('success');
    expect(result.content).toMatch(
      /^No results for "needle" in the part searched, but the search did not cover everything/,
    );
    expect(result.content).toContain('Searched 10 files (1000 bytes read) of 20 files seen.');
    expect(result.content).toContain('the 1000 bytes read budget ran out; 10 files already listed were not searched');
    expect(result.content).toContain('narrow the search with path (a sub-folder) or include');
    expect(result.display?.fields).toContainEqual({ label: 'stopped by', value: 'bytes' });
  });

  it('stops at the file limit and at the result limit, clamping maxResults to the hard maximum', async () => {
    const tree: Record<string, string> = {};
    for (let index = 0; index < 30; index += 1)
      tree[`f${String(index).padStart(2, '0')}.txt`] = 'hit\nhit\nhit\nhit\nhit\n';
    const root = testdir(tree);
    const byFiles = await search(root, { query: 'hit' }, { limits: { searchFiles: 3 } });
    expect(byFiles.content).toContain('Stopped early: the 3-file limit was reached');
    const byResults = await search(root, { query: 'hit' });
    expect(byResults.content).toMatch(/^50 results/);
    expect(byResults.content).toContain(
      'Stopped at the 50-result limit; more matches may exist. Ask for up to 100 with maxResults',
    );
    expect((await search(root, { query: 'hit', maxResults: 500 })).content).toMatch(/^100 results/);
    expect((await search(root, { query: 'hit', maxResults: 500, regex: true })).content).toMatch(/^100 results/);
  });

  it('stops a pathological regular expression at its time budget instead of stalling', async () => {
    const root = testdir({ 'a.txt': 'fine line\n', 'b.txt': `${'a'.repeat(60)}!\n` });
    const result = await search(root, { query: '(a+)+$', regex: true }, { limits: { searchRegexTimeMs: 300 } });
    expect(result.status).toBe('success');
    expect(result.content).toContain('ran past its 300 ms time budget');
    expect(result.display?.fields).toContainEqual({ label: 'stopped by', value: 'time' });
  });

  it('reads a 50 MB single-line file and a sparse 10 GB file only up to the per-file limit', async () => {
    const root = testdir({});
    const long = join(root, 'long.txt');
    const descriptor = openSync(long, 'w');
    writeSync(descriptor, 'needle-at-start ');
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    for (let index = 0; index < 50; index += 1) writeSync(descriptor, chunk);
    writeSync(descriptor, ' needle-at-end');
    closeSync(descriptor);
    const sparse = join(root, 'sparse.bin');
    closeSync(openSync(sparse, 'w'));
    truncateSync(sparse, 10 * 1024 ** 3);
    const describeTree = () =>
      readdirSync(root).map((name) => [name, statSync(join(root, name)).size, statSync(join(root, name)).mtimeMs]);
    const before = describeTree();
    const result = await search(root, { query: 'needle' });
    expect(result.content).toContain('long.txt:1: needle-at-start');
    expect(result.content).not.toContain('needle-at-end');
    expect(result.content).toContain('2 files searched only in the first 1.0 MiB');
    expect(result.content).toContain('1 binary file matched by name only');
    const regex = await search(root, { query: 'needle-at-\\w+', regex: true });
    expect(regex.content).toContain('long.txt:1: needle-at-start');
    expect(describeTree()).toEqual(before);
  });

  it('observes cancellation', async () => {
    const root = testdir({ 'a.txt': 'hit' });
    const controller = new AbortController();
    controller.abort();
    const result = await runTool(
      toolNamed('search_files'),
      { query: 'hit' },
      testContext(root, { signal: controller.signal }),
    );
    expect(result.status).toBe('cancelled');
  });
});
