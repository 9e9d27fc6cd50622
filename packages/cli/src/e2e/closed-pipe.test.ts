import { spawn } from 'node:child_process';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { BIN, childEnvironment, runCli, writeScript } from './cli-harness.js';

/** Runs the command with its stdout closed by the reader at once, as `| head -0` does. */
function runWithClosedStdout(args: readonly string[], home: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: home,
      env: childEnvironment(home),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('a reader that closes stdout early (| head)', () => {
  it('ends read-only commands quietly with exit 0, and lets run finish and persist its turn', async () => {
    const home = testdir();
    const workspace = testdir({ 'a.txt': 'alpha\n' });
    const script = writeScript(home, [
      { toolCalls: [{ id: 'r', name: 'read_file', arguments: { path: 'a.txt' } }] },
      { text: 'Read it.' },
    ]);
    const run = await runWithClosedStdout(
      ['run', '--json', '--script', script, '--workspace', workspace, 'read'],
      home,
    );
    expect(run.stderr).not.toContain('EPIPE');
    expect(run.code).toBe(0);
    const listed = await runCli(['sessions', '--json'], { home });
    const [session] = listed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string });
    const turns = await runCli(['checkpoints', '--json', '--session', session!.id], { home });
    expect(JSON.parse(turns.stdout.trim())).toMatchObject({ status: 'completed' });
    for (const args of [['sessions'], ['sessions', '--json'], ['checkpoints', '--session', session!.id]]) {
      const closed = await runWithClosedStdout(args, home);
      expect(closed.stderr).toBe('');
      expect(closed.code).toBe(0);
    }
  }, 120_000);
});

describe('a mistyped command', () => {
  it('suggests the closest command (exit 2)', async () => {
    const home = testdir();
    const run = await runCli(['checkpoint'], { home });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown command 'checkpoint'; did you mean 'clawsmith checkpoints'?");
  });
});
