// The five ways a sandboxed command once planted code that the person's next `git status` or
// `git commit` ran on the host. Each runs the real command in the real sandbox, then real git on
// the host, and checks that the planted command never ran.
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
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

/** Runs git on the host, as the person would after the command; failures are part of the observation. */
function hostGit(folder: string, ...args: string[]): void {
  try {
    execFileSync('git', args, { cwd: folder, env: GIT_ENVIRONMENT, stdio: 'ignore' });
  } catch {
    // A failing git is fine; a git that runs the planted command is not.
  }
}

function repository(files: Record<string, string> = { 'a.txt': 'a' }): { workspace: string; marker: string } {
  const workspace = testdir(files);
  const marker = join(testdir(), 'planted-command-ran');
  hostGit(workspace, 'init', '-q');
  hostGit(workspace, 'add', '.');
  hostGit(workspace, 'commit', '-q', '-m', 'initial');
  return { workspace, marker };
}

const hook = (marker: string) => `printf '#!/bin/sh\\ntouch ${marker}\\n'`;

async function sandboxed(workspace: string, command: string): Promise<string> {
  const result = await runCommand({}, { workspaceRoot: workspace, command });
  return result.output;
}

function afterwardsOnHost(folder: string): void {
  hostGit(folder, 'status');
  hostGit(folder, 'commit', '-q', '--allow-empty', '-m', 'after');
  hostGit(folder, 'checkout', '-q', '-b', 'after-branch');
}

describe('git cannot be turned into code execution on the host', () => {
  it('shape 1: renaming .git away and planting a copy with a hook and core.fsmonitor', async () => {
    const { workspace, marker } = repository();
    const output = await sandboxed(
      workspace,
      `mv .git .git-orig && cp -r .git-orig .git; ${hook(marker)} > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit; git config core.fsmonitor "touch ${marker}"`,
    );
    expect(output).toMatch(/Device or resource busy|Read-only file system/);
    expect(existsSync(join(workspace, '.git-orig'))).toBe(false);
    afterwardsOnHost(workspace);
    expect(existsSync(marker)).toBe(false);
  });

  it('shape 2: pointing .git/commondir at a planted config', async () => {
    const { workspace, marker } = repository();
    await sandboxed(
      workspace,
      `mkdir evil && cp -r .git/. evil/ && git config --file evil/config core.fsmonitor "touch ${marker}"; echo ../evil > .git/commondir`,
    );
    expect(existsSync(join(workspace, '.git', 'commondir'))).toBe(false);
    afterwardsOnHost(workspace);
    expect(existsSync(marker)).toBe(false);
  });

  it('shape 3: git init where no .git existed, then core.fsmonitor in its config', async () => {
    const workspace = testdir({ 'a.txt': 'a' });
    const marker = join(testdir(), 'planted-command-ran');
    await sandboxed(workspace, `git init -q; printf '[core]\\n\\tfsmonitor = touch ${marker}\\n' >> .git/config`);
    expect(existsSync(join(workspace, '.git'))).toBe(false);
    afterwardsOnHost(workspace);
    expect(existsSync(marker)).toBe(false);
  });

  it('shape 4: core.fsmonitor appended to a nested repository', async () => {
    const { workspace, marker } = repository();
    const nested = join(workspace, 'vendor', 'lib');
    execFileSync('mkdir', ['-p', nested]);
    writeFileSync(join(nested, 'b.txt'), 'b');
    hostGit(nested, 'init', '-q');
    hostGit(nested, 'add', '.');
    hostGit(nested, 'commit', '-q', '-m', 'nested');
    await sandboxed(
      workspace,
      `printf '[core]\\n\\tfsmonitor = touch ${marker}\\n' >> vendor/lib/.git/config; ${hook(marker)} > vendor/lib/.git/hooks/pre-commit; chmod +x vendor/lib/.git/hooks/pre-commit`,
    );
    afterwardsOnHost(nested);
    expect(existsSync(marker)).toBe(false);
  });

  it('shape 5: a .git file with gitdir: ./.bare, and a hook planted in .bare', async () => {
    const workspace = testdir({ 'a.txt': 'a' });
    const marker = join(testdir(), 'planted-command-ran');
    hostGit(workspace, 'init', '-q', '--separate-git-dir', '.bare');
    writeFileSync(join(workspace, '.git'), 'gitdir: ./.bare\n');
    hostGit(workspace, 'add', 'a.txt');
    hostGit(workspace, 'commit', '-q', '-m', 'initial');
    await sandboxed(
      workspace,
      `${hook(marker)} > .bare/hooks/post-checkout; chmod +x .bare/hooks/post-checkout; ${hook(marker)} > .bare/hooks/pre-commit; chmod +x .bare/hooks/pre-commit; git config --file .bare/config core.fsmonitor "touch ${marker}"`,
    );
    afterwardsOnHost(workspace);
    expect(existsSync(marker)).toBe(false);
  });

  it('still lets read-only git run inside the sandbox', async () => {
    const { workspace } = repository();
    const output = await sandboxed(workspace, 'git log --format=%s && git status --porcelain && echo status-ok');
    expect(output).toContain('initial');
    expect(output).toContain('status-ok');
  });
});
