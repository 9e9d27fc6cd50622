import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { processGroupAlive, waitForProcessGroupEnd } from './process-group.js';

/** A shell in a group of its own with two children of its own, as a server with its workers. */
async function startGroup(): Promise<number> {
  const shell = spawn('sh', ['-c', 'sleep 60 & sleep 60 & echo started; wait'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await once(shell.stdout, 'data');
  return shell.pid!;
}

describe('waitForProcessGroupEnd', () => {
  it('resolves true once every process of a killed group is gone, its children included', async () => {
    const group = await startGroup();
    expect(processGroupAlive(group)).toBe(true);
    process.kill(-group, 'SIGKILL');
    expect(await waitForProcessGroupEnd(group, 10_000)).toBe(true);
    expect(processGroupAlive(group)).toBe(false);
  });

  it('resolves false after the timeout while a process of the group still runs', async () => {
    const group = await startGroup();
    try {
      expect(await waitForProcessGroupEnd(group, 50)).toBe(false);
      expect(processGroupAlive(group)).toBe(true);
    } finally {
      process.kill(-group, 'SIGKILL');
    }
  });
});
