import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { processIsAlive } from './process-liveness.js';

describe('processIsAlive', () => {
  it('is true for this process and for a running child, false once the child is reaped', async () => {
    expect(processIsAlive(process.pid)).toBe(true);
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    await once(child, 'spawn');
    const pid = child.pid as number;
    expect(processIsAlive(pid)).toBe(true);
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(processIsAlive(pid)).toBe(false);
  });

  it('counts a process it may not signal as alive (pid 1 belongs to another user or is init)', () => {
    expect(processIsAlive(1)).toBe(true);
  });

  it('never takes 0, negative or fractional numbers for a process (kill(0) would mean our group)', () => {
    for (const pid of [0, -1, -process.pid, 1.5, Number.NaN]) expect(processIsAlive(pid)).toBe(false);
  });
});
