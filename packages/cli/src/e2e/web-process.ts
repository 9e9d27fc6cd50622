// Test harness: the BUILT `clawsmith web` as a child process with a temporary home, started and
// waited for until it prints its sign-in URL. Not part of the build.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { onTestFinished } from 'vitest';
import { BIN, childEnvironment } from './cli-harness.js';

/**
 * Starts `clawsmith web` with a fresh API token in `CLAWSMITH_WEB_TOKEN` (returned as `token`)
 * and waits for the sign-in URL it prints (its single-use code is `signInCode`).
 */
export async function startWeb(home: string, args: readonly string[] = [], env: Record<string, string> = {}) {
  const token = randomBytes(24).toString('hex');
  const child = spawn(process.execPath, [BIN, 'web', '--home', home, ...args], {
    env: childEnvironment(home, { CLAWSMITH_WEB_TOKEN: token, ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  onTestFinished(() => void (child.exitCode === null && child.kill('SIGKILL')));
  const deadline = Date.now() + 60_000;
  let match: RegExpExecArray | null = null;
  while (!(match = /(http:\/\/127\.0\.0\.1:\d+)\/#token=([A-Za-z0-9_-]+)/.exec(stdout))) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`clawsmith web did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { child, origin: match[1]!, token, signInCode: match[2]!, exited, output: () => ({ stdout, stderr }) };
}

/** Stops it as Ctrl-C would. */
export function stop(child: ChildProcess): void {
  child.kill('SIGINT');
}
