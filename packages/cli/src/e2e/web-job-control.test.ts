import { spawn, type IPty } from '@lydell/node-pty';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BIN, childEnvironment } from './cli-harness.js';

/** An interactive bash in a real pseudo-terminal (job control on), and what it shows. */
function startShell(home: string) {
  const pty: IPty = spawn('bash', ['--norc', '--noprofile', '-i'], {
    name: 'xterm-256color',
    cols: 220,
    rows: 40,
    cwd: home,
    env: { ...childEnvironment(home), PS1: 'shell$ ' },
  });
  let screen = '';
  pty.onData((data) => (screen += data));
  onTestFinished(() => {
    try {
      pty.kill('SIGKILL');
    } catch {
      // already gone
    }
  });
  return { pty, screen: () => screen };
}

const SIGN_IN_URL = /(http:\/\/127\.0\.0\.1:\d+)\/#token=([A-Za-z0-9_-]{43})/g;

describe('clawsmith web under job control', () => {
  it('keeps serving when started with & (it reads no keys in the background) and takes Enter again after fg', async () => {
    const home = testdir();
    const shell = startShell(home);
    shell.pty.write(
      `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} web --home ${JSON.stringify(home)} &\r`,
    );
    await expect.poll(() => shell.screen(), { timeout: 60_000 }).toContain('Ctrl-C stops the server.');
    const origin = [...shell.screen().matchAll(SIGN_IN_URL)][0]![1]!;
    // Lines typed at the shell while the server runs in the background: a read of the terminal
    // by the background job would stop it (SIGTTIN).
    for (let line = 0; line < 3; line += 1) shell.pty.write(`echo typed-${line}\r`);
    await expect.poll(() => shell.screen(), { timeout: 30_000 }).toContain('typed-2\r\n');
    shell.pty.write('jobs -l\r');
    await expect.poll(() => shell.screen(), { timeout: 30_000 }).toMatch(/\[1\]\+\s+\d+ Running/);
    expect(shell.screen()).not.toMatch(/Stopped/);
    const answer = await fetch(`${origin}/api/sessions`, { signal: AbortSignal.timeout(30_000) });
    expect(answer.status).toBe(401);

    shell.pty.write('fg\r');
    await expect.poll(() => shell.screen(), { timeout: 30_000 }).toMatch(/shell\$ fg[\s\S]+web --home/);
    // Pressed right after fg: the line waits in the terminal until the server reads it.
    shell.pty.write('\r');
    await expect.poll(() => shell.screen(), { timeout: 30_000 }).toContain('New sign-in URL (works once):');
    expect([...shell.screen().matchAll(SIGN_IN_URL)]).toHaveLength(2);
    shell.pty.write('\u0003');
    await expect.poll(() => shell.screen(), { timeout: 60_000 }).toContain('clawsmith web: stopping');
    shell.pty.write('echo "exit=$?"\r');
    await expect.poll(() => shell.screen(), { timeout: 60_000 }).toContain('exit=0');
  }, 180_000);
});
