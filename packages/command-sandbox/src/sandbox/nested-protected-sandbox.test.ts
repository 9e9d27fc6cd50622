// Protected paths that do not exist yet, below the root (`sub/.git/hooks`): no mount can guard a
// path nobody knows, so the overlay capture refuses them when the command's changes are applied.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../index.js';

describe('nested protected paths created by a command', () => {
  it('are captured as refused changes and never reach the workspace, while ordinary writes land', async () => {
    const workspace = testdir({ 'sub/src/a.ts': 'a', 'packages/app/index.js': 'i' });
    const result = await runCommand(
      {},
      {
        workspaceRoot: workspace,
        command: [
          'mkdir -p sub/.git/hooks && echo evil > sub/.git/hooks/pre-commit && printf "[core]\\n\\tfsmonitor = evil\\n" > sub/.git/config',
          'mkdir -p packages/app/.vscode && echo "{}" > packages/app/.vscode/tasks.json',
          'mkdir -p packages/app/.husky && echo evil > packages/app/.husky/pre-push',
          'echo ok > sub/src/a.ts',
        ].join('; '),
      },
    );
    expect(result.exitCode).toBe(0);
    expect(result.files).toMatchObject({ captured: true });
    const changes = result.files?.captured ? result.files.changes : undefined;
    expect(changes?.refused).toEqual(
      expect.arrayContaining([
        'sub/.git/hooks/pre-commit',
        'sub/.git/config',
        'packages/app/.vscode/tasks.json',
        'packages/app/.husky/pre-push',
      ]),
    );
    for (const path of ['sub/.git', 'packages/app/.vscode', 'packages/app/.husky'])
      expect(existsSync(join(workspace, path)), path).toBe(false);
    expect(readFileSync(join(workspace, 'sub/src/a.ts'), 'utf8')).toBe('ok\n');
  });
});
