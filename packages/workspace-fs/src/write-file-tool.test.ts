import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshotTree, testdir } from '@clawsmith/test-utils';
import { runTool, testContext, toolNamed } from './__fixtures__/tool-context.js';
import { sha256 } from './regular-file.js';

const writeFile = toolNamed('write_file');

describe('write_file', () => {
  it('creates a new file and records "absent" before and the new hash after', async () => {
    const root = testdir({ src: {} });
    const context = testContext(root);
    const result = await runTool(writeFile, { path: 'src/new.ts', content: 'export {};\n' }, context);
    expect(result).toMatchObject({ status: 'success', content: 'Created src/new.ts (11 bytes, 1 line).' });
    expect(result.display).toMatchObject({
      kind: 'diff',
      title: 'Created src/new.ts',
      body: '--- /dev/null\n+++ b/src/new.ts\n@@ -0,0 +1,1 @@\n+export {};\n',
    });
    expect(readFileSync(join(root, 'src/new.ts'), 'utf8')).toBe('export {};\n');
    expect(context.changes).toEqual([
      { phase: 'before', path: 'src/new.ts', image: { state: 'absent' } },
      {
        phase: 'after',
        path: 'src/new.ts',
        image: { state: 'file', sha256: sha256('export {};\n'), content: Buffer.from('export {};\n') },
      },
    ]);
    expect(Object.keys(snapshotTree(root))).toEqual(['src', 'src/new.ts']);
  });

  it('refuses hostile and impossible targets, changing nothing and recording nothing', async () => {
    const outside = testdir({ 'victim.txt': 'outside' });
    const root = testdir({
      'exists.txt': 'mine',
      folder: {},
      'out-dir': { symlink: outside },
      'dangling-out': { symlink: join(outside, 'created-by-link.txt') },
      'dangling-in': { symlink: 'nowhere.txt' },
      'git-alias': { symlink: '.git' },
      'loop-a': { symlink: 'loop-b' },
      'loop-b': { symlink: 'loop-a' },
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.bare': { HEAD: 'ref: refs/heads/main\n', objects: {}, refs: {}, hooks: {} },
    });
    const cases: [string, string][] = [
      ['exists.txt', 'file_exists'],
      ['folder', 'file_exists'],
      ['../escape.txt', 'path_outside_workspace'],
      [join(outside, 'abs.txt'), 'path_outside_workspace'],
      [`${root}-sibling/x.txt`, 'path_outside_workspace'],
      ['out-dir/new.txt', 'path_outside_workspace'],
      ['dangling-out', 'path_outside_workspace'],
      ['dangling-in', 'file_not_found'],
      ['missing/deeper/new.txt', 'file_not_found'],
      ['exists.txt/child.txt', 'file_not_found'],
      ['.git/hooks/pre-commit', 'protected_path'],
      ['.GIT/hooks/pre-commit', 'protected_path'],
      ['vendor/.git/hooks/post-checkout', 'protected_path'],
      ['git-alias/hooks/pre-push', 'protected_path'],
      ['.clawsmith/config.json', 'protected_path'],
      ['.bashrc', 'protected_path'],
      ['.vscode/tasks.json', 'protected_path'],
      ['.vscode/settings.json', 'protected_path'],
      ['.idea/workspace.xml', 'protected_path'],
      ['.husky/pre-commit', 'protected_path'],
      ['.envrc', 'protected_path'],
      ['.gitmodules', 'protected_path'],
      ['.zprofile', 'protected_path'],
      ['.bare/hooks/post-checkout', 'protected_path'],
      ['.bare/config', 'protected_path'],
      ['loop-a/new.txt', 'invalid_path'],
      ['loop-a', 'invalid_path'],
      ['a\0b.txt', 'invalid_path'],
      ['x'.repeat(300), 'invalid_path'],
      ['', 'invalid_path'],
    ];
    const before = snapshotTree(root);
    const outsideBefore = snapshotTree(outside);
    for (const [path, code] of cases) {
      const context = testContext(root);
      const result = await runTool(writeFile, { path, content: 'planted' }, context);
      expect(result.code, path).toBe(code);
      expect(context.changes, path).toEqual([]);
      expect(snapshotTree(root), path).toEqual(before);
    }
    expect(snapshotTree(outside)).toEqual(outsideBefore);
    expect(
      (await runTool(writeFile, { path: '.git/hooks/pre-commit', content: 'x' }, testContext(root))).content,
    ).toContain('Path is protected');
  });

  it('refuses content over the limit and calls without authorization', async () => {
    const root = testdir({});
    expect(
      await runTool(
        toolNamed('write_file', { limits: { writeBytes: 10 } }),
        { path: 'a.txt', content: '12345678901' },
        testContext(root),
      ),
    ).toMatchObject({
      code: 'file_too_large',
    });
    expect(
      await runTool(writeFile, { path: 'a.txt', content: 'x' }, testContext(root, { authorized: false })),
    ).toMatchObject({
      code: 'unauthorized',
      content: 'Tool write_file requires explicit authorization',
    });
    expect(snapshotTree(root)).toEqual({});
  });

  it('writes nothing when the recorder refuses', async () => {
    const root = testdir({});
    const context = testContext(root, {
      beforeChange: () => {
        throw new Error('checkpoint store is full');
      },
    });
    const result = await runTool(writeFile, { path: 'a.txt', content: 'x' }, context);
    expect(result).toMatchObject({
      code: 'change_not_recorded',
      content: expect.stringContaining('Nothing was written'),
    });
    expect(snapshotTree(root)).toEqual({});
  });

  it('never clobbers a target that someone else creates between the check and the write', async () => {
    const root = testdir({});
    const context = testContext(root, { beforeChange: () => writeFileSync(join(root, 'race.txt'), 'theirs') });
    const result = await runTool(writeFile, { path: 'race.txt', content: 'ours' }, context);
    expect(result).toMatchObject({ code: 'file_exists', content: expect.stringContaining('nothing was overwritten') });
    expect(snapshotTree(root)).toEqual({ 'race.txt': expect.stringContaining(sha256('theirs')) });
  });
});
