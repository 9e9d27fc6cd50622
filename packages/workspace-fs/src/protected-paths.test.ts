import { describe, expect, it } from 'vitest';
import { createProtectedPathMatcher, isProtectedPath } from './protected-paths.js';

describe('isProtectedPath', () => {
  it('protects .git at any depth, nested repositories included, ignoring case', () => {
    for (const path of [
      '.git',
      '.git/hooks/pre-commit',
      'vendor/lib/.git/config',
      '.GIT/HOOKS/post-checkout',
      'a/.Git',
      '.gitmodules',
      'sub/.GitModules',
    ]) {
      expect(isProtectedPath(path), path).toBe(true);
    }
  });

  it('protects clawsmith config, shell startup files and editor task folders', () => {
    for (const path of [
      '.clawsmith/config.json',
      '.clawsmith',
      '.bashrc',
      'home/.zshrc',
      '.profile',
      '.vscode/tasks.json',
      '.idea/workspace.xml',
      '.envrc',
      '.husky/pre-commit',
    ]) {
      expect(isProtectedPath(path), path).toBe(true);
    }
  });

  it('leaves ordinary files alone, including names that merely contain a protected word', () => {
    for (const path of [
      'src/git.ts',
      '.github/workflows/ci.yml',
      'docs/.gitignore-notes.md',
      'bashrc.md',
      'src/vscode/tasks.json',
      '.gitignore',
    ]) {
      expect(isProtectedPath(path), path).toBe(false);
    }
  });

  it('adds configured globs and reports which one matched', () => {
    const matcher = createProtectedPathMatcher(['secrets/**']);
    expect(matcher.match('secrets/key.pem')).toBe('secrets/**');
    expect(matcher.match('SECRETS/key.pem')).toBe('secrets/**');
    expect(matcher.match('.git/config')).toBe('**/.git/**');
    expect(matcher.match('src/a.ts')).toBeUndefined();
  });
});
