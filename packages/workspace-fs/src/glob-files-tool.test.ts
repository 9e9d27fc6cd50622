import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testdir } from '@clawsmith/test-utils';
import { runTool, testContext, toolNamed } from './__fixtures__/tool-context.js';
import type { WorkspaceToolsOptions } from './tool-options.js';

function glob(root: string, input: Record<string, unknown>, options: WorkspaceToolsOptions = {}) {
  return runTool(toolNamed('glob_files', options), input, testContext(root));
}

describe('glob_files', () => {
  it('matches *, ** and ? relative to the workspace in a stable sorted order', async () => {
    const root = testdir({
      'src/b.ts': '',
      'src/a.ts': '',
      'src/deep/c.ts': '',
      'src/d.js': '',
      'x1.ts': '',
      'x22.ts': '',
      '.github/ci.yml': '',
    });
    expect((await glob(root, { pattern: 'src/**/*.ts' })).content).toBe(
      '3 files match src/**/*.ts:\nsrc/a.ts\nsrc/b.ts\nsrc/deep/c.ts',
    );
    expect((await glob(root, { pattern: '*.ts' })).content).toBe('2 files match *.ts:\nx1.ts\nx22.ts');
    expect((await glob(root, { pattern: 'x?.ts' })).content).toBe('1 file matches x?.ts:\nx1.ts');
    expect((await glob(root, { pattern: '**/*.yml' })).content).toContain('.github/ci.yml');
    expect((await glob(root, { pattern: 'src/**' })).content).toBe(
      '4 files match src/**:\nsrc/a.ts\nsrc/b.ts\nsrc/d.js\nsrc/deep/c.ts',
    );
    expect((await glob(root, { pattern: 'src/**/*.d.ts' })).content).toBe('No files match src/**/*.d.ts.');
    expect((await glob(root, { pattern: '**/*' })).content.split('\n')).toHaveLength(8);
    symlinkSync('src', join(root, 'alias'));
    expect((await glob(root, { pattern: 'alias/*.js' })).content).toBe('1 file matches alias/*.js:\nalias/d.js');
    expect((await glob(root, { pattern: './src/a.ts' })).content).toBe('1 file matches src/a.ts:\nsrc/a.ts');
    const result = await glob(root, { pattern: 'nothing/**' });
    expect(result).toMatchObject({ status: 'success', content: 'No files match nothing/**.' });
    expect(result.display).toMatchObject({ kind: 'search' });
  });

  it('refuses patterns with .., absolute patterns and ones that escape through a symlink', async () => {
    const root = testdir({ 'a.txt': '', etc: { symlink: '/etc' } });
    for (const pattern of ['../**', 'src/../../x', '/etc/*', '~/x', '', 'a\0b']) {
      expect(await glob(root, { pattern }), pattern).toMatchObject({ status: 'error', code: 'invalid_pattern' });
    }
    expect(await glob(root, { pattern: 'etc/*' })).toMatchObject({ code: 'path_outside_workspace' });
  });

  it('skips dependency folders and symlinks, and reports it', async () => {
    const root = testdir({
      'src/a.ts': '',
      'node_modules/m/a.ts': '',
      'dist/a.ts': '',
      'link.ts': { symlink: 'src/a.ts' },
      loop: { symlink: 'loop' },
    });
    const result = await glob(root, { pattern: '**/*.ts' });
    expect(result.content).toBe(
      '1 file matches **/*.ts:\nsrc/a.ts\n\nLeft out: 2 skipped folders (node_modules, .git, dist, coverage); 2 symlinks or special files.',
    );
    expect((await glob(root, { pattern: 'node_modules/**/*.ts' })).content).toContain('node_modules/m/a.ts');
  });

  it('stops at the result cap and the entry cap and says so', async () => {
    const tree: Record<string, string> = {};
    for (let index = 0; index < 12; index += 1) tree[`d${index}/f.txt`] = '';
    const root = testdir(tree);
    const capped = await glob(root, { pattern: '**/*.txt', maxResults: 5 });
    expect(capped.content.split('\n').slice(1, 6)).toEqual([
      'd0/f.txt',
      'd1/f.txt',
      'd10/f.txt',
      'd11/f.txt',
      'd2/f.txt',
    ]);
    expect(capped.content).toContain('Stopped at the 5-path limit; more files match.');
    const visited = await glob(root, { pattern: '**/*.txt' }, { limits: { globEntries: 6 } });
    expect(visited.content).toContain('Stopped early: visited the 6-entry limit');
  });
});
