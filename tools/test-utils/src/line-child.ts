import { spawn } from 'node:child_process';
import { onTestFinished } from 'vitest';

/** A TypeScript fixture running in its own Node process, spoken to a line at a time. */
export interface LineChild {
  /** Sends one line to the child's stdin. */
  send(line: string): void;
  /** The next line the child prints on stdout, waiting for it; rejects if the child ends first. */
  next(): Promise<string>;
}

/**
 * Starts `fixture` under tsx with the source condition (so it runs the packages' sources), for
 * tests that need real separate processes, such as several processes racing on one database.
 * The child is killed when the test finishes.
 */
export function startLineChild(fixture: string, args: readonly string[] = []): LineChild {
  const child = spawn(process.execPath, ['--conditions=@clawsmith/source', '--import', 'tsx', fixture, ...args]);
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
