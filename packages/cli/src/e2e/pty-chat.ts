// Test harness: the built interactive command in a real pseudo-terminal, with a way to wait for
// text on the screen. Not part of the build.
import { spawn, type IPty } from '@lydell/node-pty';
import { onTestFinished } from 'vitest';
import { BIN, childEnvironment } from './cli-harness.js';

/** The interactive command in a real pseudo-terminal, with a way to wait for text on the screen. */
export function startChat(args: readonly string[], home: string) {
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
