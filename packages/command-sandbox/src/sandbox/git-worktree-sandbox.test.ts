// A workspace that is a linked git worktree: its repository's git folder lives outside the
// workspace. Inside the sandbox git works (status, commit), and what runs code stays read-only.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../index.js';

const GIT_ENVIRONMENT = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
};

const git = (folder: string, ...args: string[]) =>
  execFileSync('git', args, { cwd: folder, env: GIT_ENVIRONMENT, encoding: 'utf8' });

describe('a linked git worktree as the workspace', () => {
  it('lets git status and git commit work, and keeps hooks and config read-only', async () => {
    const main = testdir({ 'a.txt': 'a' });
    git(main, 'init', '-q', '-b', 'main');
    git(main, 'add', '.');
    git(main, 'commit', '-q', '-m', 'initial');
    const workspace = join(testdir(), 'feature');
    git(main, 'worktree', 'add', '-q', '-b', 'feature', workspace);
    const configBefore = readFileSync(join(main, '.git/config'), 'utf8');
    const marker = join(testdir(), 'hook-ran');

    const result = await runCommand(
      {},
      {
        workspaceRoot: workspace,
        command: [
          'export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@e.invalid GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@e.invalid',
          'git status --short && echo STATUS-OK',
          'echo b > b.txt && git add b.txt && git commit -q -m second && echo COMMIT-OK',
          `common=$(git rev-parse --git-common-dir)`,
          `printf '#!/bin/sh\\ntouch ${marker}\\n' > "$common/hooks/pre-commit" || echo HOOK-REFUSED`,
          `echo "[core] fsmonitor = touch ${marker}" >> "$common/config" || echo CONFIG-REFUSED`,
          `echo ../.. > "$(git rev-parse --git-dir)/commondir" || echo COMMONDIR-REFUSED`,
          // Absent in the repository's own folder: creating it would point the main checkout's git elsewhere.
          `echo ../evil > "$common/commondir" || echo COMMON-COMMONDIR-REFUSED`,
          `mkdir "$common/worktrees/planted" || echo OTHER-WORKTREE-REFUSED`,
        ].join('; '),
      },
    );
    expect(result.output).toContain('STATUS-OK');
    expect(result.output).toContain('COMMIT-OK');
    expect(result.output).toContain('HOOK-REFUSED');
    expect(result.output).toContain('CONFIG-REFUSED');
    expect(result.output).toContain('COMMONDIR-REFUSED');
    expect(result.output).toContain('COMMON-COMMONDIR-REFUSED');
    expect(result.output).toContain('OTHER-WORKTREE-REFUSED');
    expect(existsSync(join(main, '.git/commondir'))).toBe(false);

    expect(git(main, 'log', '--format=%s', 'feature').split('\n')[0]).toBe('second');
    expect(readFileSync(join(main, '.git/config'), 'utf8')).toBe(configBefore);
    git(workspace, 'status', '--short');
    git(main, 'commit', '-q', '--allow-empty', '-m', 'host commit runs hooks');
    expect(existsSync(marker)).toBe(false);
  });
});
