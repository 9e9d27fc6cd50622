import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawn, type IPty } from '@lydell/node-pty';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BIN, childEnvironment, writeScript } from './cli-harness.js';

/** The interactive command in a real pseudo-terminal, with a way to wait for text on the screen. */
function startChat(args: readonly string[], home: string) {
  const pty: IPty = spawn(process.execPath, [BIN, ...args], {
    name: 'xterm-256color',
    cols: 120,
    rows: 40,
    cwd: home,
    env: childEnvironment(home),
  });
  let screen = '';
  let consumed = 0;
  const waiters = new Set<() => void>();
  pty.onData((data) => {
    screen += data;
    for (const waiter of waiters) waiter();
  });
  const exited = new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)));
  onTestFinished(() => {
    try {
      pty.kill();
    } catch {
      // already gone
    }
  });
  /** Resolves when `text` appears after what earlier waits consumed; fails with the screen after 60 s. */
  const waitFor = (text: string | RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const rest = screen.slice(consumed);
        const match =
          typeof text === 'string'
            ? rest.includes(text)
              ? { index: rest.indexOf(text), length: text.length }
              : undefined
            : (() => {
                const found = text.exec(rest);
                return found ? { index: found.index, length: found[0].length } : undefined;
              })();
        if (match) {
          waiters.delete(check);
          clearTimeout(timer);
          consumed += match.index + match.length;
          resolve(rest.slice(0, match.index + match.length));
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(
          new Error(
            `Timed out waiting for ${String(text)}; the screen after the last match:\n${screen.slice(consumed)}`,
          ),
        );
      }, 60_000);
      waiters.add(check);
      check();
    });
  return { pty, waitFor, exited, screen: () => screen };
}

describe('clawsmith chat in a pseudo-terminal', () => {
  it('streams a turn, asks for approval, takes yes, then /undo puts the file back', async () => {
    const home = testdir();
    const workspace = testdir({ 'keep.txt': 'kept\n' });
    const script = writeScript(home, [
      {
        text: 'Creating the file.',
        toolCalls: [
          { id: 'call_w', name: 'write_file', arguments: { path: 'made.txt', content: 'made by the agent\n' } },
        ],
      },
      { text: 'Created made.txt.' },
    ]);
    const chat = startChat(['--script', script, '--workspace', workspace], home);
    await chat.waitFor('› ');
    chat.pty.write('please make the file\r');
    // The approval shows the change: what the new file will start with.
    await chat.waitFor('new file made.txt: 1 line(s), 18 byte(s)');
    await chat.waitFor('+made by the agent');
    await chat.waitFor('Allow? [y]es / [n]o / [a]lways for this session');
    expect(existsSync(join(workspace, 'made.txt'))).toBe(false);
    chat.pty.write('y\r');
    await chat.waitFor('Created made.txt.');
    await chat.waitFor(/turn #1 \S+ completed/);
    expect(existsSync(join(workspace, 'made.txt'))).toBe(true);
    await chat.waitFor('› ');

    chat.pty.write('/checkpoints\r');
    await chat.waitFor('#1 ');
    chat.pty.write('/undo 1\r');
    await chat.waitFor('Undid turn');
    expect(existsSync(join(workspace, 'made.txt'))).toBe(false);
    expect(existsSync(join(workspace, 'keep.txt'))).toBe(true);
    chat.pty.write('/exit\r');
    expect(await chat.exited).toBe(0);
    // NO_COLOR: no colours, and never an OSC sequence.
    expect(chat.screen()).not.toContain('\u001b[31m');
    expect(chat.screen()).not.toContain('\u001b]');
  });

  it('a denied approval leaves the workspace as it was; Ctrl-C cancels a running command, a second Ctrl-C exits', async () => {
    const home = testdir();
    const workspace = testdir();
    const script = writeScript(home, [
      { toolCalls: [{ id: 'call_w', name: 'write_file', arguments: { path: 'no.txt', content: 'no' } }] },
      { text: 'Understood, not writing.' },
      { toolCalls: [{ id: 'call_sleep', name: 'run_command', arguments: { command: 'sleep 60' } }] },
      { text: 'never reached' },
    ]);
    const chat = startChat(['--script', script, '--workspace', workspace], home);
    await chat.waitFor('› ');
    chat.pty.write('write no.txt\r');
    await chat.waitFor('Allow?');
    chat.pty.write('n\r');
    await chat.waitFor(/denied \(permission_denied\) write_file/);
    await chat.waitFor(/turn #1 \S+ completed/);
    expect(existsSync(join(workspace, 'no.txt'))).toBe(false);

    await chat.waitFor('› ');
    chat.pty.write('sleep a while\r');
    await chat.waitFor('$ sleep 60');
    await chat.waitFor(`in ${workspace}`);
    await chat.waitFor('Allow?');
    chat.pty.write('a\r');
    await chat.waitFor('▸ run_command');
    chat.pty.write('\u0003');
    await chat.waitFor('Cancelling the turn');
    await chat.waitFor(/turn #2 \S+ cancelled/);
    chat.pty.write('\u0003');
    expect(await chat.exited).toBe(130);
  });
});
