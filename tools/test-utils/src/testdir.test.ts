import { existsSync, lstatSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestdir, snapshotTree, testdir } from './index.js';

describe('testdir', () => {
  it('builds files, folders, symlinks and modes from an object literal', () => {
    const root = testdir({
      'a.txt': 'alpha',
      'deep/nested/b.bin': new Uint8Array([0, 1, 2]),
      src: { 'index.ts': 'export {};' },
      'link-to-a': { symlink: 'a.txt' },
      'script.sh': { content: '#!/bin/sh\n', mode: 0o755 },
    });
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('alpha');
    expect([...readFileSync(join(root, 'deep/nested/b.bin'))]).toEqual([0, 1, 2]);
    expect(readFileSync(join(root, 'src/index.ts'), 'utf8')).toBe('export {};');
    expect(lstatSync(join(root, 'link-to-a')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(root, 'link-to-a'))).toBe('a.txt');
    expect(statSync(join(root, 'script.sh')).mode & 0o777).toBe(0o755);
  });

  it('removes a created tree when asked', () => {
    const dir = createTestdir({ 'x.txt': 'x' });
    expect(existsSync(dir.path)).toBe(true);
    dir.remove();
    expect(existsSync(dir.path)).toBe(false);
  });
});

describe('snapshotTree', () => {
  it('changes when one byte of one file changes, and not otherwise', () => {
    const first = createTestdir({ 'a.txt': 'same', 'b/c.txt': 'one' });
    const second = createTestdir({ 'a.txt': 'same', 'b/c.txt': 'one' });
    const third = createTestdir({ 'a.txt': 'same', 'b/c.txt': 'onf' });
    try {
      expect(snapshotTree(first.path)).toEqual(snapshotTree(second.path));
      expect(snapshotTree(first.path)).not.toEqual(snapshotTree(third.path));
    } finally {
      first.remove();
      second.remove();
      third.remove();
    }
  });
});
