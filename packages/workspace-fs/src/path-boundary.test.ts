import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testdir } from '@clawsmith/test-utils';
import { isInsideFolder, resolveWorkspacePath } from './path-boundary.js';
import { WorkspaceBoundaryError, WorkspaceFsError } from './workspace-fs-error.js';

function refusal(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    expect(WorkspaceFsError.isInstance(error)).toBe(true);
    return { code: (error as WorkspaceFsError).code, message: (error as Error).message };
  }
  throw new Error('expected a refusal');
}

describe('isInsideFolder', () => {
  it('compares whole segments, never string prefixes', () => {
    expect(isInsideFolder('/w/proj', '/w/proj')).toBe(true);
    expect(isInsideFolder('/w/proj', '/w/proj/a/b')).toBe(true);
    expect(isInsideFolder('/w/proj', '/w/proj-evil/x')).toBe(false);
    expect(isInsideFolder('/w/proj', '/w/projx')).toBe(false);
    expect(isInsideFolder('/w/proj', '/w')).toBe(false);
    expect(isInsideFolder('/w/proj', '/w/proj/..foo')).toBe(true);
  });
});

describe('resolveWorkspacePath', () => {
  it('resolves relative and inside-absolute paths to the real path with a / relative form', () => {
    const root = testdir({ 'src/a.ts': 'a', 'link-dir': { symlink: 'src' } });
    expect(resolveWorkspacePath(root, 'src/a.ts')).toMatchObject({
      relative: 'src/a.ts',
      exists: true,
      real: join(root, 'src/a.ts'),
    });
    expect(resolveWorkspacePath(root, join(root, 'src/a.ts')).relative).toBe('src/a.ts');
    expect(resolveWorkspacePath(root, './src/../src/a.ts').relative).toBe('src/a.ts');
    expect(resolveWorkspacePath(root, 'link-dir/a.ts')).toMatchObject({ relative: 'src/a.ts', exists: true });
    expect(resolveWorkspacePath(root, 'src/new/deeper.ts')).toMatchObject({
      relative: 'src/new/deeper.ts',
      exists: false,
      missingSegments: 2,
    });
  });

  it('refuses .. tricks and outside absolute paths with the same message, whether or not the target exists', () => {
    const root = testdir({ 'a.txt': 'a' });
    for (const requested of [
      '..',
      '../x',
      'src/../../etc/passwd',
      '/etc/passwd',
      '/definitely/not/there',
      'a/../../..',
      `${root}/../x`,
    ]) {
      expect(refusal(() => resolveWorkspacePath(root, requested))).toEqual({
        code: 'path_outside_workspace',
        message: `Path is outside the workspace: ${requested}`,
      });
    }
  });

  it('refuses a sibling folder whose name shares the workspace as prefix', () => {
    const parent = testdir({ 'proj/a.txt': 'a', 'proj-evil/x.txt': 'evil' });
    const root = join(parent, 'proj');
    expect(refusal(() => resolveWorkspacePath(root, `${root}-evil/x.txt`)).code).toBe('path_outside_workspace');
    expect(refusal(() => resolveWorkspacePath(root, '../proj-evil/x.txt')).code).toBe('path_outside_workspace');
  });

  it('refuses symlinks to outside folders, directly and as an intermediate component', () => {
    const root = testdir({ etc: { symlink: '/etc' }, 'inner/escape': { symlink: '../..' } });
    expect(refusal(() => resolveWorkspacePath(root, 'etc')).code).toBe('path_outside_workspace');
    expect(refusal(() => resolveWorkspacePath(root, 'etc/passwd')).code).toBe('path_outside_workspace');
    expect(refusal(() => resolveWorkspacePath(root, 'etc/not-there/new.txt', { forWrite: true })).code).toBe(
      'path_outside_workspace',
    );
    expect(refusal(() => resolveWorkspacePath(root, 'inner/escape/anything')).code).toBe('path_outside_workspace');
  });

  it('refuses a symlink loop and dangling symlinks with clear errors', () => {
    const root = testdir({
      'loop-a': { symlink: 'loop-b' },
      'loop-b': { symlink: 'loop-a' },
      'dangling-out': { symlink: '/nonexistent-clawsmith/x' },
      'dangling-in': { symlink: 'missing.txt' },
    });
    expect(refusal(() => resolveWorkspacePath(root, 'loop-a'))).toMatchObject({
      code: 'invalid_path',
      message: expect.stringContaining('symlink loop'),
    });
    expect(refusal(() => resolveWorkspacePath(root, 'dangling-out', { forWrite: true })).code).toBe(
      'path_outside_workspace',
    );
    expect(refusal(() => resolveWorkspacePath(root, 'dangling-in', { forWrite: true }))).toMatchObject({
      code: 'file_not_found',
      message: expect.stringContaining('symlink'),
    });
  });

  it('gives clear errors for empty, NUL, long and non-string paths, and for the root as a write target', () => {
    const root = testdir({});
    expect(refusal(() => resolveWorkspacePath(root, '')).code).toBe('invalid_path');
    expect(refusal(() => resolveWorkspacePath(root, '   ')).code).toBe('invalid_path');
    expect(refusal(() => resolveWorkspacePath(root, 'a\0b'))).toMatchObject({
      code: 'invalid_path',
      message: expect.stringContaining('NUL'),
    });
    expect(refusal(() => resolveWorkspacePath(root, 'x'.repeat(5_000))).code).toBe('invalid_path');
    expect(refusal(() => resolveWorkspacePath(root, `${'y'.repeat(300)}/z`)).code).toBe('invalid_path');
    expect(refusal(() => resolveWorkspacePath(root, 42)).message).toContain('must be a string');
    expect(refusal(() => resolveWorkspacePath(root, null)).code).toBe('invalid_path');
    expect(refusal(() => resolveWorkspacePath(root, '.', { forWrite: true })).code).toBe('invalid_path');
  });

  it('accepts absolute paths under a configured root that is itself reached through a symlink', () => {
    const parent = testdir({ 'real/a.txt': 'a' });
    symlinkSync(join(parent, 'real'), join(parent, 'alias'));
    const configured = join(parent, 'alias');
    expect(resolveWorkspacePath(configured, join(configured, 'a.txt')).relative).toBe('a.txt');
    expect(resolveWorkspacePath(configured, join(parent, 'real', 'a.txt')).relative).toBe('a.txt');
    expect(refusal(() => resolveWorkspacePath(configured, join(parent, 'a.txt'))).code).toBe('path_outside_workspace');
  });

  it('says when the workspace root is unusable', () => {
    expect(refusal(() => resolveWorkspacePath('/nonexistent-clawsmith-root', 'a')).code).toBe('workspace_unavailable');
    expect(refusal(() => resolveWorkspacePath('relative/root', 'a')).code).toBe('workspace_unavailable');
  });

  it('throws the boundary error class with the requested path', () => {
    const root = testdir({});
    try {
      resolveWorkspacePath(root, '../secret');
    } catch (error) {
      expect(error).toBeInstanceOf(WorkspaceBoundaryError);
      expect((error as WorkspaceBoundaryError).path).toBe('../secret');
    }
    expect.assertions(2);
  });
});
