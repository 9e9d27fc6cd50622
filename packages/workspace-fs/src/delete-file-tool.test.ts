import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshotTree, testdir } from '@clawsmith/test-utils';
import { runTool, testContext, toolNamed } from './__fixtures__/tool-context.js';

const deleteFile = toolNamed('delete_file');

describe('delete_file', () => {
  it('deletes a regular file after recording its bytes and mode', async () => {
    const root = testdir({ 'a.txt': { content: 'alpha', mode: 0o600 }, 'b.txt': 'beta' });
    const context = testContext(root);
    expect(await runTool(deleteFile, { path: 'a.txt' }, context)).toMatchObject({
      status: 'success',
      content: 'Deleted a.txt (5 bytes).',
      display: {
        kind: 'diff',
        title: 'Deleted a.txt',
        body: '--- a/a.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-alpha\n\\ No newline at end of file\n',
      },
    });
    expect(Object.keys(snapshotTree(root))).toEqual(['b.txt']);
    expect(context.changes).toEqual([
      { phase: 'before', path: 'a.txt', image: { state: 'file', content: Buffer.from('alpha'), mode: 0o600 } },
      { phase: 'after', path: 'a.txt', image: { state: 'absent' } },
    ]);
  });

  it('shows no lines for a binary file it deletes', async () => {
    const root = testdir({ 'blob.bin': 'a\0b' });
    const result = await runTool(deleteFile, { path: 'blob.bin' }, testContext(root));
    expect(result.display).toEqual({
      kind: 'diff',
      title: 'Deleted blob.bin',
      fields: [{ label: 'bytes', value: '3' }],
    });
  });

  it('refuses folders, symlinks, FIFOs, outside and protected paths, oversized files and unauthorized calls', async () => {
    const root = testdir({
      folder: { 'x.txt': 'x' },
      'link.txt': { symlink: 'big.txt' },
      'big.txt': 'x'.repeat(50),
      etc: { symlink: '/etc' },
      '.git/HEAD': 'ref',
    });
    execFileSync('mkfifo', [join(root, 'pipe')]);
    const before = snapshotTree(root);
    const small = toolNamed('delete_file', { limits: { recordBytes: 10 } });
    const cases: [typeof deleteFile, string, string, boolean][] = [
      [deleteFile, 'folder', 'not_a_file', true],
      [deleteFile, '.', 'invalid_path', true],
      [deleteFile, 'link.txt', 'not_a_file', true],
      [deleteFile, 'pipe', 'not_a_file', true],
      [deleteFile, 'etc/hostname', 'path_outside_workspace', true],
      [deleteFile, '../x', 'path_outside_workspace', true],
      [deleteFile, '.git/HEAD', 'protected_path', true],
      [small, 'big.txt', 'file_too_large', true],
      [deleteFile, 'big.txt', 'unauthorized', false],
    ];
    for (const [tool, path, code, authorized] of cases) {
      const context = testContext(root, { authorized });
      expect((await runTool(tool, { path }, context)).code, path).toBe(code);
      expect(context.changes).toEqual([]);
      expect(snapshotTree(root)).toEqual(before);
    }
  });
});
