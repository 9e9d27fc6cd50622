import { describe, expect, it } from 'vitest';
import { PROTECTED_PATHS, protectedPathEntry, protectedPathGlobs } from './protected-paths.js';

describe('protectedPathEntry', () => {
  it.each([
    '.git',
    '.git/config',
    '.git/hooks/pre-commit',
    'vendor/lib/.git/config',
    '.GIT/Config',
    './.gitmodules',
    'a\\.git\\hooks\\x',
    '.vscode/tasks.json',
    '.vscode/settings.json',
    '.idea/workspace.xml',
    '.husky/pre-commit',
    'packages/x/.envrc',
    '.bashrc',
    'home/.config/fish/config.fish',
    '.clawsmith/permissions.json',
  ])('protects %s', (path) => {
    expect(protectedPathEntry(path)).toBeDefined();
  });

  it.each(['src/git.ts', '.gitignore', 'docs/.bashrc.md', 'x.git/config', 'config/fish', '.envrc/notes', ''])(
    'leaves %s alone',
    (path) => {
      expect(protectedPathEntry(path)).toBeUndefined();
    },
  );

  it('names the entry and why', () => {
    expect(protectedPathEntry('lib/.git/hooks/post-checkout')).toMatchObject({ path: '.git', extent: 'tree' });
  });
});

describe('protectedPathGlobs', () => {
  it('turns trees into two globs and files into one', () => {
    const globs = protectedPathGlobs();
    expect(globs).toContain('**/.git');
    expect(globs).toContain('**/.git/**');
    expect(globs).toContain('**/.envrc');
    expect(globs).not.toContain('**/.envrc/**');
    expect(globs.length).toBe(PROTECTED_PATHS.reduce((sum, entry) => sum + (entry.extent === 'tree' ? 2 : 1), 0));
  });
});
