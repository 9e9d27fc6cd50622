import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testdir } from '@clawsmith/test-utils';
import { indexedWorkspace } from './__fixtures__/indexed-workspace.js';

function hits(content: string): string[] {
  return content.split('\n').filter((line) => /^\S+:\d+: /.test(line) || line.endsWith('(file name matches)'));
}

function indexFile(home: string): string {
  const [folder] = readdirSync(home);
  return `${home}/${folder}/index.bin`;
}

describe.each([
  { mode: 'watching folders', watch: true },
  { mode: 'sweeping before each search', watch: false },
])('search index freshness, $mode', ({ watch }) => {
  it('sees a file edited by edit_file in the very next search', async () => {
    const root = testdir({ 'src/a.ts': 'const before = 1;\n', 'src/b.ts': 'other\n' });
    const workspace = indexedWorkspace(root, { watch });
    await workspace.ready();
    const edited = await workspace.run('edit_file', { path: 'src/a.ts', oldText: 'before', newText: 'afterEdit' });
    expect(edited.status).toBe('success');
    expect(hits((await workspace.search({ query: 'afterEdit' })).content)).toEqual([
      'src/a.ts:1: const afterEdit = 1;',
    ]);
    expect((await workspace.search({ query: 'before' })).content).toMatch(/^No results for "before"\./);
  });

  it('sees a file edited outside clawsmith between two searches', async () => {
    const root = testdir({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' });
    const workspace = indexedWorkspace(root, { watch });
    await workspace.ready();
    expect((await workspace.search({ query: 'outsideEdit' })).content).toMatch(/^No results/);
    appendFileSync(`${root}/b.txt`, 'outsideEdit happened\n');
    const result = await workspace.search({ query: 'outsideEdit' });
    expect(hits(result.content)).toEqual(['b.txt:2: outsideEdit happened']);
    expect(result.content).toContain('Used the search index');
  });

  it('sees files created, deleted and renamed by a command', async () => {
    const root = testdir({ 'old.txt': 'marker old\n', 'keep.txt': 'marker keep\n', 'move.txt': 'marker moved\n' });
    const workspace = indexedWorkspace(root, { watch });
    await workspace.ready();
    execFileSync('sh', ['-c', 'echo "marker new" > new.txt && rm old.txt && mkdir sub && mv move.txt sub/moved.txt'], {
      cwd: root,
    });
    const result = await workspace.search({ query: 'marker' });
    expect(hits(result.content)).toEqual([
      'keep.txt:1: marker keep',
      'new.txt:1: marker new',
      'sub/moved.txt:1: marker moved',
    ]);
    expect(result.content).toContain('of 3 indexed');
  });

  it('does not follow a folder replaced by a symlink', async () => {
    const outside = testdir({ 'secret.txt': 'linkedSecret\n' });
    const root = testdir({ 'lib/inner.txt': 'linkedSecret inside\n', 'top.txt': 'top\n' });
    const workspace = indexedWorkspace(root, { watch });
    await workspace.ready();
    expect(hits((await workspace.search({ query: 'linkedSecret' })).content)).toEqual([
      'lib/inner.txt:1: linkedSecret inside',
    ]);
    rmSync(`${root}/lib`, { recursive: true });
    symlinkSync(outside, `${root}/lib`);
    const result = await workspace.search({ query: 'linkedSecret' });
    expect(result.content).toMatch(/^No results for "linkedSecret"\./);
    expect(result.content).toContain('of 1 indexed');
  });

  it('searches a file that grew past the per-file limit only in its first bytes, as the walk does', async () => {
    const root = testdir({ 'grow.txt': 'start\n' });
    const workspace = indexedWorkspace(root, { watch, limits: { searchFileBytes: 1_024 } });
    await workspace.ready();
    appendFileSync(`${root}/grow.txt`, `${'x'.repeat(2_000)}\nlateMarker\n`);
    const late = await workspace.search({ query: 'lateMarker' });
    expect(late.content).toMatch(/^No results for "lateMarker"\./);
    truncateSync(`${root}/grow.txt`, 0);
    writeFileSync(`${root}/grow.txt`, `earlyMarker\n${'y'.repeat(2_000)}\n`);
    const early = await workspace.search({ query: 'earlyMarker' });
    expect(hits(early.content)).toEqual(['grow.txt:1: earlyMarker']);
    expect(early.content).toContain('1 file searched only in the first 1.0 KiB');
  });

  it('sees 1,000 files changed at once (a branch switch)', async () => {
    const tree: Record<string, string> = {};
    for (let index = 0; index < 1_000; index += 1)
      tree[`pkg${index % 10}/file${index}.ts`] = `export const value${index} = ${index};\n`;
    const root = testdir(tree);
    const workspace = indexedWorkspace(root, { watch });
    await workspace.ready();
    const switchedAt = Date.now();
    for (let index = 0; index < 1_000; index += 1)
      writeFileSync(`${root}/pkg${index % 10}/file${index}.ts`, `export const switched${index} = ${index};\n`);
    const one = await workspace.search({ query: 'switched737 ' });
    expect(hits(one.content)).toEqual(['pkg7/file737.ts:1: export const switched737 = 737;']);
    expect((await workspace.search({ query: 'value737' })).content).toMatch(/^No results for "value737"\./);
    const many = await workspace.search({ query: 'switched', maxResults: 100 });
    expect(hits(many.content)).toHaveLength(100);
    // So many changed files start a rebuild of the stored index; answers stay right across the swap.
    const deadline = Date.now() + 60_000;
    while (statSync(indexFile(workspace.home)).mtimeMs < switchedAt && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(statSync(indexFile(workspace.home)).mtimeMs).toBeGreaterThanOrEqual(switchedAt);
    writeFileSync(`${root}/pkg3/file3.ts`, 'export const afterRebuild = 3;\n');
    for (let round = 0; round < 5; round += 1) {
      expect(hits((await workspace.search({ query: 'switched737 ' })).content)).toEqual([
        'pkg7/file737.ts:1: export const switched737 = 737;',
      ]);
      expect(hits((await workspace.search({ query: 'afterRebuild' })).content)).toEqual([
        'pkg3/file3.ts:1: export const afterRebuild = 3;',
      ]);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const settled = await workspace.search({ query: 'switched737 ' });
    expect(settled.content).toContain('of 1,000 indexed');
  }, 120_000);
});

describe('a damaged stored index', () => {
  it.each([
    [
      'a flipped byte',
      (path: string) => {
        const bytes = readFileSync(path);
        bytes[bytes.length - 10] = bytes[bytes.length - 10]! ^ 0xff;
        writeFileSync(path, bytes);
      },
    ],
    ['a truncated file', (path: string) => truncateSync(path, Math.floor(readFileSync(path).length / 2))],
    ['garbage', (path: string) => writeFileSync(path, 'not an index at all')],
  ])('is rebuilt, never trusted, after %s', async (_name, damage) => {
    const root = testdir({ 'a.txt': 'stored content\n' });
    const first = indexedWorkspace(root);
    await first.ready();
    await first.close();
    damage(indexFile(first.home));
    writeFileSync(`${root}/a.txt`, 'fresh content\n');
    const second = indexedWorkspace(root, { home: first.home });
    const meanwhile = await second.search({ query: 'fresh content' });
    expect(meanwhile.content).toContain('The search index was not used');
    expect(hits(meanwhile.content)).toEqual(['a.txt:1: fresh content']);
    await second.ready();
    const after = await second.search({ query: 'fresh content' });
    expect(hits(after.content)).toEqual(['a.txt:1: fresh content']);
    expect(after.content).toContain('Used the search index');
  });
});
