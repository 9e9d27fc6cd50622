import { spawn } from 'node:child_process';
import { onTestFinished } from 'vitest';
import { bundledFixture } from './bundled-fixture.js';

/** A TypeScript fixture running in its own Node process, spoken to a line at a time. */
export interface LineChild {
  /** Sends one line to the child's stdin. */
  send(line: string): void;
  /** The next line the child prints on stdout, waiting for it; rejects if the child ends first. */
  next(): Promise<string>;
}

/**
 * Starts `fixture` (TypeScript, running the packages' sources) in its own Node process, for tests
 * that need real separate processes, such as several processes racing on one database. The
 * fixture starts bundled ({@link bundledFixture}), not compiled module by module through tsx at
 * each start. The child is killed when the test finishes.
 */
export async function startLineChild(fixture: string, args: readonly string[] = []): Promise<LineChild> {
  const child = spawn(process.execPath, [await bundledFixture(fixture), ...args]);
  onTestFinished(() => void child.kill());
  const lines: string[] = [];
  let partial = '';
  let errors = '';
  let ended = false;
  let wake: (() => void) | undefined;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
    wake?.();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  child.on('close', () => {
    ended = true;
    wake?.();
  });
  return {
    send: (line) => void child.stdin.write(`${line}\n`),
    async next() {
      while (lines.length === 0) {
        if (ended) throw new Error(`${fixture} ended without another line; its stderr: ${errors}`);
        await new Promise<void>((resolve) => (wake = resolve));
      }
      return lines.shift()!;
    },
  };
}
