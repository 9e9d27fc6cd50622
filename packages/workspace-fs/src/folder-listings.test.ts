import { mkdirSync, readdirSync, renameSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testdir } from '@clawsmith/test-utils';
import { runTool, testContext, toolNamed } from './__fixtures__/tool-context.js';
import { ENTRY_KIND, FolderListings } from './folder-listings.js';

// Folders made by a test are moments old, so their listings would not be kept. Dating every
// folder's modification time an hour back and moving the clock a minute on makes them settled,
// as a real workspace's folders are; a change made afterwards then gives a new modification
// time whatever the file system's clock resolution.
function settleEveryFolder(root: string): void {
  const hourAgo = new Date(Date.now() - 3_600_000);
  const age = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true }))
      if (entry.isDirectory()) age(join(folder, entry.name));
    utimesSync(folder, hourAgo, hourAgo);
  };
  age(root);
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + 60_000);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('FolderListings', () => {
  it('lists entries in code-unit order with their kinds, and keeps the listing of an unchanged settled folder', () => {
    const root = testdir({ 'b.txt': '', 'a/x.txt': '', 'B.txt': '', link: { symlink: 'b.txt' } });
    settleEveryFolder(root);
    const listings = new FolderListings();
    const first = listings.list(root)!;
    expect(first.names).toEqual(['B.txt', 'a', 'b.txt', 'link']);
    expect([...first.kinds]).toEqual([ENTRY_KIND.file, ENTRY_KIND.folder, ENTRY_KIND.file, ENTRY_KIND.other]);
    expect(first.files).toBe(2);
    expect(listings.list(root)).toBe(first);
  });

  it('lists a folder again once an entry was created, removed or swapped, even at once', () => {
    const root = testdir({ 'a.txt': '', 'sub/x.txt': '' });
    settleEveryFolder(root);
    const listings = new FolderListings();
    listings.list(root);
    writeFileSync(join(root, 'b.txt'), '');
    expect(listings.list(root)!.names).toEqual(['a.txt', 'b.txt', 'sub']);
    unlinkSync(join(root, 'a.txt'));
    symlinkSync('b.txt', join(root, 'a.txt'));
    expect([...listings.list(root)!.kinds]).toEqual([ENTRY_KIND.other, ENTRY_KIND.file, ENTRY_KIND.folder]);
  });

  it('never keeps a folder changed within the settling time, and refuses a folder swapped for a symlink', () => {
    const root = testdir({ 'sub/x.txt': '' });
    const listings = new FolderListings();
    const fresh = listings.list(root)!;
    expect(listings.list(root)).not.toBe(fresh);
    settleEveryFolder(root);
    expect(listings.list(join(root, 'sub'))!.names).toEqual(['x.txt']);
    renameSync(join(root, 'sub'), join(root, 'old'));
    symlinkSync(join(root, 'old'), join(root, 'sub'));
    expect(listings.list(join(root, 'sub'))).toBeUndefined();
    expect(listings.list(join(root, 'missing'))).toBeUndefined();
  });

  it('drops kept listings beyond its entry limit instead of growing', () => {
    const root = testdir({ 'a/1': '', 'a/2': '', 'b/1': '', 'b/2': '' });
    settleEveryFolder(root);
    const listings = new FolderListings(3);
    const a = listings.list(join(root, 'a'));
    expect(listings.list(join(root, 'a'))).toBe(a);
    listings.list(join(root, 'b'));
    expect(listings.list(join(root, 'a'))).not.toBe(a);
  });
});

describe('search and glob over kept listings', () => {
  it('see files created after the previous call and never follow a folder swapped for a symlink', async () => {
    const outside = testdir({ 'secret.txt': 'hit outside' });
    const root = testdir({ 'src/a.txt': 'hit', 'src/deep/b.txt': 'hit' });
    settleEveryFolder(root);
    const search = toolNamed('search_files');
    const glob = toolNamed('glob_files');
    const hits = async () =>
      (await runTool(search, { query: 'hit' }, testContext(root))).content
        .split('\n')
        .filter((line) => line.includes(': hit'));
    expect(await hits()).toEqual(['src/a.txt:1: hit', 'src/deep/b.txt:1: hit']);
    expect((await runTool(glob, { pattern: '**/*.txt' }, testContext(root))).content).toBe(
      '2 files match **/*.txt:\nsrc/a.txt\nsrc/deep/b.txt',
    );

    writeFileSync(join(root, 'src/deep/c.txt'), 'hit');
    mkdirSync(join(root, 'src/new'));
    writeFileSync(join(root, 'src/new/d.txt'), 'hit');
    expect(await hits()).toEqual([
      'src/a.txt:1: hit',
      'src/deep/b.txt:1: hit',
      'src/deep/c.txt:1: hit',
      'src/new/d.txt:1: hit',
    ]);

    renameSync(join(root, 'src/deep'), join(root, 'moved'));
    symlinkSync(outside, join(root, 'src/deep'));
    expect(await hits()).toEqual([
      'moved/b.txt:1: hit',
      'moved/c.txt:1: hit',
      'src/a.txt:1: hit',
      'src/new/d.txt:1: hit',
    ]);
    const globbed = await runTool(glob, { pattern: '**/*.txt' }, testContext(root));
    expect(globbed.content).not.toContain('secret');
    expect(globbed.content).toContain('Left out: 1 symlink or special file.');
  });
});
