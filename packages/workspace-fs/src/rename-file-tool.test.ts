import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshotTree, testdir } from '@clawsmith/test-utils';
import { runTool, testContext, toolNamed } from './__fixtures__/tool-context.js';
import { sha256 } from './regular-file.js';

const renameFile = toolNamed('rename_file');

describe('rename_file', () => {
  it('moves a regular file, recording source and target before and after', async () => {
    const root = testdir({ 'a.txt': { content: 'alpha', mode: 0o640 }, lib: {} });
    const context = testContext(root);
    const result = await runTool(renameFile, { from: 'a.txt', to: 'lib/b.txt' }, context);
    expect(result).toMatchObject({ status: 'success', content: 'Renamed a.txt to lib/b.txt.' });
    expect(readFileSync(join(root, 'lib/b.txt'), 'utf8')).toBe('alpha');
    expect(Object.keys(snapshotTree(root))).toEqual(['lib', 'lib/b.txt']);
    expect(context.changes).toEqual([
      { phase: 'before', path: 'a.txt', image: { state: 'file', content: Buffer.from('alpha'), mode: 0o640 } },
      { phase: 'before', path: 'lib/b.txt', image: { state: 'absent' } },
      { phase: 'after', path: 'a.txt', image: { state: 'absent' } },
      {
        phase: 'after',
        path: 'lib/b.txt',
        image: { state: 'file', sha256: sha256('alpha'), content: Buffer.from('alpha') },
      },
    ]);
  });

  it('refuses to overwrite, to move folders or symlinks, to leave the workspace or touch protected paths', async () => {
    const outside = testdir({});
    const root = testdir({
      'a.txt': 'alpha',
      'b.txt': 'beta',
      folder: { 'x.txt': 'x' },
      'link.txt': { symlink: 'a.txt' },
      out: { symlink: outside },
    });
    const cases: [string, string, string][] = [
      ['a.txt', 'b.txt', 'file_exists'],
      ['a.txt', 'folder', 'file_exists'],
      ['a.txt', 'a.txt', 'file_exists'],
      ['folder', 'moved', 'not_a_file'],
      ['link.txt', 'moved.txt', 'not_a_file'],
      ['missing.txt', 'moved.txt', 'file_not_found'],
      ['a.txt', 'no/such/folder.txt', 'file_not_found'],
      ['a.txt', '../escaped.txt', 'path_outside_workspace'],
      ['a.txt', 'out/escaped.txt', 'path_outside_workspace'],
      ['a.txt', '.git/hooks/pre-commit', 'protected_path'],
      ['a.txt', '.vscode/tasks.json', 'protected_path'],
    ];
    const before = snapshotTree(root);
    for (const [from, to, code] of cases) {
      const context = testContext(root);
      const result = await runTool(renameFile, { from, to }, context);
      expect(result.code, `${from} -> ${to}`).toBe(code);
      expect(context.changes).toEqual([]);
      expect(snapshotTree(root)).toEqual(before);
    }
    expect(snapshotTree(outside)).toEqual({});
  });

  it('never clobbers a target created by someone else while it runs', async () => {
    const root = testdir({ 'a.txt': 'alpha' });
    const context = testContext(root, {
      beforeChange: (path) => {
        if (path === 'b.txt') writeFileSync(join(root, 'b.txt'), 'theirs');
      },
    });
    const result = await runTool(renameFile, { from: 'a.txt', to: 'b.txt' }, context);
    expect(result.code).toBe('file_exists');
    expect(snapshotTree(root)).toEqual({
      'a.txt': expect.stringContaining(sha256('alpha')),
      'b.txt': expect.stringContaining(sha256('theirs')),
    });
  });

  it('refuses without authorization', async () => {
    const root = testdir({ 'a.txt': 'alpha' });
    expect(
      (await runTool(renameFile, { from: 'a.txt', to: 'b.txt' }, testContext(root, { authorized: false }))).code,
    ).toBe('unauthorized');
    expect(Object.keys(snapshotTree(root))).toEqual(['a.txt']);
  });
});
