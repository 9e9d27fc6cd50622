import { mkdirSync, symlinkSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testdir } from '@clawsmith/test-utils';
import { IndexWalker } from './index-walk.js';

// Names whose code-unit order differs from other orders (upper case first, '-' before '/'), a
// skipped folder, an empty folder, a link to a folder and one to a file (neither followed).
function workspace(): string {
  const root = testdir({
    'B.txt': 'b',
    'a/z.txt': 'z',
    'a/b/c.txt': 'c',
    'a-b/d.txt': 'd',
    'node_modules/x.txt': 'x',
    'e.txt': 'e',
  });
  mkdirSync(`${root}/empty`);
  symlinkSync(`${root}/a`, `${root}/link-to-a`);
  symlinkSync(`${root}/e.txt`, `${root}/link-to-e.txt`);
  return root;
}

describe('IndexWalker', () => {
  it('walks depth-first in code-unit order of names, past skipped folders and links', () => {
    const walker = new IndexWalker(workspace(), new Set(['node_modules']));
    walker.walkAll();
    expect(walker.files.map((file) => file.relative)).toEqual(['B.txt', 'a/b/c.txt', 'a/z.txt', 'a-b/d.txt', 'e.txt']);
    expect(walker.files.map((file) => file.name)).toEqual(['B.txt', 'c.txt', 'z.txt', 'd.txt', 'e.txt']);
    expect(walker.folders.map((folder) => folder.relative)).toEqual(['', 'a', 'a/b', 'a-b', 'empty']);
  });

  it('stops once a count of files is found and goes on from there to the same walk', () => {
    const root = workspace();
    const whole = new IndexWalker(root, new Set(['node_modules']));
    whole.walkAll();
    for (let count = 0; count <= whole.files.length; count += 1) {
      const walker = new IndexWalker(root, new Set(['node_modules']));
      const goesOn = walker.walkUntil(count);
      // Stopped at the count exactly (a file at a time), or at the end.
      expect(walker.files.length).toBe(count);
      expect(goesOn).toBe(count < whole.files.length || walker.folders.length < whole.folders.length);
      walker.walkAll();
      expect(walker.files).toEqual(whole.files);
      expect(walker.folders).toEqual(whole.folders);
    }
  });

  it('finds nothing in a root that is missing or not a folder', () => {
    const root = workspace();
    for (const path of [`${root}/missing`, `${root}/e.txt`]) {
      const walker = new IndexWalker(path, new Set());
      expect(walker.walkUntil(10)).toBe(false);
      expect([walker.files, walker.folders]).toEqual([[], []]);
    }
  });
});
