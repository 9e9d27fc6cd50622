import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { BIN, childEnvironment, runCli } from './cli-harness.js';

describe('clawsmith demo leaves nothing behind', () => {
  it('removes its temporary folders when interrupted with Ctrl-C mid-tour', async () => {
    const scratch = testdir();
    const child = spawn(process.execPath, [BIN, 'demo'], {
      cwd: scratch,
      env: childEnvironment(scratch, { TMPDIR: scratch }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        if (output.includes('── turn 1')) resolve();
      });
      child.on('close', () => reject(new Error(`the demo ended before its first turn: ${output}`)));
    });
    expect(readdirSync(scratch).some((name) => name.startsWith('clawsmith-demo-'))).toBe(true);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(readdirSync(scratch).filter((name) => name.startsWith('clawsmith-demo-'))).toEqual([]);
  }, 120_000);

  it('prints follow-up commands that carry --home, so they work when pasted', async () => {
    const home = testdir();
    const run = await runCli(['demo', '--home', home], { home: testdir() });
    expect(run.code).toBe(0);
    const pasted = /clawsmith (undo diff \S+ \S+ --session \S+ --home \S+)/.exec(run.stdout)?.[1];
    expect(pasted).toBeDefined();
    const diff = await runCli(pasted!.split(' '), { home: testdir() });
    expect(diff.stderr).toBe('');
    expect(diff.code).toBe(0);
  }, 120_000);
});
