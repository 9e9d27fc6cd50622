import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { expect, it, onTestFinished } from 'vitest';
import { createCommandExecutionService } from './index.js';

it('a command that ends keeps the mount points another running command uses: that one stays guarded, and the last one out removes them', async () => {
  const workspace = testdir({});
  const commands = createCommandExecutionService();
  onTestFinished(() => commands.close());
  const first = await commands.start({ sessionId: 'first', workspaceRoot: workspace, command: 'sleep 60' });
  // bubblewrap made an empty `.bash_login` on the host as the mount point of the first command's guard.
  await expect.poll(() => existsSync(join(workspace, '.bash_login')), { timeout: 20_000 }).toBe(true);
  const second = await commands.start({
    sessionId: 'second',
    workspaceRoot: workspace,
    command:
      'touch second-ready; while [ ! -e go ]; do sleep 0.05; done; if (echo planted > .bash_login) 2>/dev/null; then echo PLANTED; else echo GUARDED; fi',
  });
  await expect.poll(() => existsSync(join(workspace, 'second-ready')), { timeout: 20_000 }).toBe(true);

  expect(await commands.endSession('first')).toBe(1);
  expect(commands.status('second', second.id).state).toBe('running');
  writeFileSync(join(workspace, 'go'), '');
  await expect.poll(() => commands.status('second', second.id).state, { timeout: 20_000 }).not.toBe('running');

  const output = commands.output('second', second.id, 0, 10_000).bytes.toString('utf8');
  expect(output).toBe('GUARDED\n');
  expect(existsSync(join(workspace, '.bash_login')) && readFileSync(join(workspace, '.bash_login'), 'utf8')).toBe(
    false,
  );
  expect(first.id).not.toBe(second.id);
});
