// The one protected list, as the real sandbox applies it: every path the file tools refuse is
// read-only to commands too, and nothing the sandbox puts in place is left on the host.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotTree, testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../index.js';

const PLANTED = [
  '.bashrc',
  '.zshrc',
  '.bash_profile',
  '.zprofile',
  '.profile',
  '.gitmodules',
  '.envrc',
  '.husky/pre-commit',
  '.vscode/settings.json',
  '.vscode/tasks.json',
  '.idea/workspace.xml',
  '.clawsmith/permissions.json',
];

describe('protected paths in the sandbox', () => {
  it('refuses every path of the one list, existing or not, and leaves no mount point behind', async () => {
    const workspace = testdir({ '.vscode': { 'extensions.json': '{}' }, 'src/a.ts': 'a' });
    const before = snapshotTree(join(workspace, '.vscode'));
    const writes = PLANTED.map((path) => `mkdir -p "$(dirname ${path})"; echo planted > ${path}`).join('; ');
    const result = await runCommand({}, { workspaceRoot: workspace, command: `${writes}; echo ok > src/a.ts` });
    expect(result.exitCode).toBe(0);
    expect(readdirSync(workspace).sort()).toEqual(['.vscode', 'src']);
    expect(readdirSync(join(workspace, 'src'))).toEqual(['a.ts']);
    expect(snapshotTree(join(workspace, '.vscode'))).toEqual(before);
    expect(readFileSync(join(workspace, 'src/a.ts'), 'utf8')).toBe('ok\n');
    expect(result.output.match(/Read-only file system|Permission denied/g)?.length).toBe(PLANTED.length);
  });

  it('keeps an existing nested repository, and a nested .vscode, read-only', async () => {
    const workspace = testdir({
      'vendor/lib/.git': { config: '[core]\n', HEAD: 'ref: refs/heads/main\n', objects: {}, refs: {} },
      'packages/app/.vscode/tasks.json': '{}',
    });
    const before = snapshotTree(workspace);
    const result = await runCommand(
      {},
      {
        workspaceRoot: workspace,
        command: [
          'echo "[core] fsmonitor = evil" >> vendor/lib/.git/config',
          'mkdir -p vendor/lib/.git/hooks; echo evil > vendor/lib/.git/hooks/pre-commit',
          'echo evil > packages/app/.vscode/tasks.json',
          'mv vendor/lib/.git vendor/lib/.git-orig',
          'rm -rf packages/app/.vscode',
        ].join('; '),
      },
    );
    expect(result.output).toMatch(/Read-only file system|Device or resource busy/);
    expect(snapshotTree(workspace)).toEqual(before);
  });

  it('never creates a .git at the root of a workspace without one', async () => {
    const workspace = testdir({ 'src/a.ts': 'a' });
    const result = await runCommand(
      {},
      { workspaceRoot: workspace, command: 'mkdir -p .git/hooks && echo evil > .git/hooks/pre-commit; git init -q .' },
    );
    expect(result.exitCode).not.toBe(0);
    expect(existsSync(join(workspace, '.git'))).toBe(false);
    expect(readFileSync(join(workspace, 'src/a.ts'), 'utf8')).toBe('a');
  });
});
