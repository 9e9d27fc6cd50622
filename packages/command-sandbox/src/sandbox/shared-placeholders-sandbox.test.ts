import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startLineChild, testdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createCommandExecutionService } from '../index.js';

const otherProcess = resolve(import.meta.dirname, '../__fixtures__/command-in-another-process.ts');

// The command that must stay guarded: it waits for `go`, then tries to plant `.bash_login`.
const PLANTER =
  'touch second-ready; while [ ! -e go ]; do sleep 0.05; done; if (echo planted > .bash_login) 2>/dev/null; then echo PLANTED; else echo GUARDED; fi';

/**
 * Starts the first command (`startFirst`, which must leave bubblewrap's empty `.bash_login` mount
 * point on the host), then the planter here, ends the first (`endFirst`), and lets the planter try.
 */
async function planterAfterFirstEnds(
  workspace: string,
  startFirst: () => Promise<void>,
  endFirst: () => Promise<void>,
): Promise<string> {
  await startFirst();
  await expect.poll(() => existsSync(join(workspace, '.bash_login')), { timeout: 20_000 }).toBe(true);
  const commands = createCommandExecutionService();
  onTestFinished(() => commands.close());
  const second = await commands.start({ sessionId: 'second', workspaceRoot: workspace, command: PLANTER });
  await expect.poll(() => existsSync(join(workspace, 'second-ready')), { timeout: 20_000 }).toBe(true);
  await endFirst();
  expect(commands.status('second', second.id).state).toBe('running');
  writeFileSync(join(workspace, 'go'), '');
  await expect.poll(() => commands.status('second', second.id).state, { timeout: 20_000 }).not.toBe('running');
  return commands.output('second', second.id, 0, 10_000).bytes.toString('utf8');
}

describe('the empty mount points of absent protected paths, shared by running commands', () => {
  it('a command that ends in this process leaves them to another running one: it stays guarded, and the last one out removes them', async () => {
    const workspace = testdir({});
    const first = createCommandExecutionService();
    onTestFinished(() => first.close());
    const output = await planterAfterFirstEnds(
      workspace,
      async () => void (await first.start({ sessionId: 'first', workspaceRoot: workspace, command: 'sleep 60' })),
      async () => expect(await first.endSession('first')).toBe(1),
    );
    expect(output).toBe('GUARDED\n');
    expect(existsSync(join(workspace, '.bash_login'))).toBe(false);
  });

  it('the same when the command that ends ran in another process', async () => {
    const workspace = testdir({});
    const other = await startLineChild(otherProcess);
    expect(await other.next()).toBe('READY');
    const output = await planterAfterFirstEnds(
      workspace,
      async () => {
        other.send(`start ${workspace} sleep 60`);
        expect(await other.next()).toBe('STARTED');
      },
      async () => {
        other.send('end');
        expect(await other.next()).toBe('ENDED 1');
      },
    );
    expect(output).toBe('GUARDED\n');
    expect(existsSync(join(workspace, '.bash_login'))).toBe(false);
  });

  it('refuses to start a command, sandbox_unavailable, when the uses cannot be tracked (the registry is a symbolic link)', async () => {
    const workspace = testdir({});
    const runtime = testdir({});
    mkdirSync(join(runtime, 'elsewhere'));
    symlinkSync(join(runtime, 'elsewhere'), join(runtime, `clawsmith-mount-points-${process.getuid!()}`));
    const saved = process.env.XDG_RUNTIME_DIR;
    process.env.XDG_RUNTIME_DIR = runtime;
    onTestFinished(() => {
      if (saved === undefined) delete process.env.XDG_RUNTIME_DIR;
      else process.env.XDG_RUNTIME_DIR = saved;
    });
    const commands = createCommandExecutionService();
    onTestFinished(() => commands.close());
    await expect(commands.start({ sessionId: 's', workspaceRoot: workspace, command: 'true' })).rejects.toMatchObject({
      code: 'sandbox_unavailable',
      message: expect.stringContaining('cannot be tracked'),
    });
    expect(existsSync(join(workspace, '.bash_login'))).toBe(false);
  });
});
