// Git works in a command as it does for the person (add, commit, switch, stash write objects,
// refs, index, logs, HEAD), while what makes git run code (hooks, config, info, commondir,
// modules, worktrees) stays read-only and cannot be created, captured or not.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../index.js';
import type { CaptureMode } from '../capture/command-capture.js';

const GIT_ENVIRONMENT = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
};

const IDENTITY =
  'export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@e.invalid GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@e.invalid';

const git = (folder: string, ...args: string[]) =>
  execFileSync('git', args, { cwd: folder, env: GIT_ENVIRONMENT, encoding: 'utf8' });

function repository(): string {
  const workspace = testdir({ 'a.txt': 'one\n' });
  git(workspace, 'init', '-q', '-b', 'main');
  git(workspace, 'add', '.');
  git(workspace, 'commit', '-q', '-m', 'initial');
  return workspace;
}

describe.each<CaptureMode>(['auto', 'off'])('git in a command (capture %s)', (capture) => {
  it('commits, switches branches and stashes, and the host repository shows it', async () => {
    const workspace = repository();
    const result = await runCommand(
      { capture },
      {
        workspaceRoot: workspace,
        command: [
          IDENTITY,
          'set -e',
          'echo two > b.txt && git add b.txt && git commit -q -m second',
          'git switch -q -c feature && echo feature >> a.txt && git commit -q -am on-feature',
          'echo scratch >> a.txt && git stash -q && git stash list | grep -q "WIP on feature"',
          'git switch -q main && echo ALL-OK',
        ].join('\n'),
      },
    );
    expect(result.output).toContain('ALL-OK');
    expect(result.exitCode).toBe(0);
    expect(git(workspace, 'log', '--format=%s', 'main').trim().split('\n')).toEqual(['second', 'initial']);
    expect(git(workspace, 'log', '--format=%s', 'feature').trim().split('\n')[0]).toBe('on-feature');
    expect(git(workspace, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('main');
    expect(git(workspace, 'stash', 'list')).toContain('WIP on feature');
    git(workspace, 'fsck', '--no-progress');
    // No placeholder is left in the git folder after the run.
    for (const name of ['commondir', 'config.worktree', 'gitdir', 'modules', 'worktrees'])
      expect(existsSync(join(workspace, '.git', name))).toBe(false);
  });

  it('cannot write .git/hooks/pre-commit or .git/config, nor create commondir, info or modules', async () => {
    const workspace = repository();
    const marker = join(testdir(), 'planted-command-ran');
    const configBefore = readFileSync(join(workspace, '.git/config'), 'utf8');
    const result = await runCommand(
      { capture },
      {
        workspaceRoot: workspace,
        command: [
          `printf '#!/bin/sh\\ntouch ${marker}\\n' > .git/hooks/pre-commit || echo HOOK-REFUSED`,
          `echo "[core] fsmonitor = touch ${marker}" >> .git/config || echo CONFIG-REFUSED`,
          'mkdir evil && cp -r .git/. evil/ 2>/dev/null; echo ../evil > .git/commondir || echo COMMONDIR-REFUSED',
          'echo "* filter=x" > .git/info/attributes || echo INFO-REFUSED',
          'mkdir -p .git/modules/sub || echo MODULES-REFUSED',
          'mv .git/hooks .git/hooks-away || echo HOOKS-MOVE-REFUSED',
        ].join('\n'),
      },
    );
    for (const word of ['HOOK', 'CONFIG', 'COMMONDIR', 'INFO', 'MODULES', 'HOOKS-MOVE'])
      expect(result.output).toContain(`${word}-REFUSED`);
    expect(readFileSync(join(workspace, '.git/config'), 'utf8')).toBe(configBefore);
    expect(readdirSync(join(workspace, '.git/hooks')).filter((name) => !name.endsWith('.sample'))).toEqual([]);
    expect(existsSync(join(workspace, '.git/commondir'))).toBe(false);
    git(workspace, 'commit', '-q', '--allow-empty', '-m', 'host commit runs hooks');
    git(workspace, 'status');
    expect(existsSync(marker)).toBe(false);
  });

  it('cannot rewrite the to-do list of a rebase the person has in progress', async () => {
    const workspace = repository();
    git(workspace, 'commit', '-q', '--allow-empty', '-m', 'second');
    // The person's interactive rebase stops at its first commit (`edit`).
    execFileSync('git', ['rebase', '-q', '-i', 'HEAD~1'], {
      cwd: workspace,
      env: { ...GIT_ENVIRONMENT, GIT_SEQUENCE_EDITOR: "sed -i '1s/^pick/edit/'" },
    });
    const todo = join(workspace, '.git/rebase-merge/git-rebase-todo');
    const done = join(workspace, '.git/rebase-merge/done');
    const before = [readFileSync(todo, 'utf8'), readFileSync(done, 'utf8')];
    const marker = join(testdir(), 'planted-exec-ran');
    const result = await runCommand(
      { capture },
      {
        workspaceRoot: workspace,
        command: [
          IDENTITY,
          `echo "exec touch ${marker}" >> .git/rebase-merge/git-rebase-todo || echo TODO-REFUSED`,
          'rm -rf .git/rebase-merge 2>/dev/null; test -d .git/rebase-merge && echo REMOVE-REFUSED',
          'git status | grep -q "rebase in progress" && echo STATUS-OK',
        ].join('\n'),
      },
    );
    expect(result.output).toContain('TODO-REFUSED');
    expect(result.output).toContain('REMOVE-REFUSED');
    expect(result.output).toContain('STATUS-OK');
    expect([readFileSync(todo, 'utf8'), readFileSync(done, 'utf8')]).toEqual(before);
    // The person continues the rebase on the host: nothing a command planted runs.
    git(workspace, 'rebase', '--continue');
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(workspace, '.git/rebase-merge'))).toBe(false);
  });
});
