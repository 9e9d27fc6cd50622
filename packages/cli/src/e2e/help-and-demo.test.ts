import { readFileSync } from 'node:fs';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli } from './cli-harness.js';

const version = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

describe('clawsmith --help and --version', () => {
  it('prints help for every command and exits 0', async () => {
    const home = testdir();
    for (const args of [
      ['--help'],
      ['chat', '--help'],
      ['run', '--help'],
      ['sessions', '--help'],
      ['checkpoints', '--help'],
      ['undo', '--help'],
      ['undo', 'files', '--help'],
      ['undo', 'diff', '--help'],
      ['fork', '--help'],
      ['demo', '--help'],
    ]) {
      const run = await runCli(args, { home });
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stdout, args.join(' ')).toMatch(/^Usage: clawsmith/);
    }
    const root = await runCli(['--help'], { home });
    for (const command of ['chat', 'run', 'sessions', 'checkpoints', 'undo', 'fork', 'demo'])
      expect(root.stdout).toContain(`  ${command}`);
    expect(root.stdout).toContain('clawsmith demo');
  });

  it('prints the package version', async () => {
    const run = await runCli(['--version'], { home: testdir() });
    expect(run).toMatchObject({ code: 0, stdout: `${version}\n` });
  });
});

describe('clawsmith demo', () => {
  it('runs the scripted tour without a key: refusal, artifact, todos, undo, final state', async () => {
    const home = testdir();
    const run = await runCli(['demo', '--home', home], { home });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const out = run.stdout;
    expect(out).toContain('scripted');
    for (const tool of [
      'glob_files',
      'read_file',
      'search_files',
      'edit_file',
      'write_file',
      'run_command',
      'read_artifact',
      'todo_write',
    ])
      expect(out).toContain(tool);
    expect(out).toContain('2 checks passed');
    expect(out).toMatch(/⊘ denied \(\w+\) run_command|✗ error \(\w+\) run_command/);
    expect(out).toMatch(/output kept as artifact art_/);
    expect(out).toContain('[x] Greet by name');
    expect(out).toContain('restored README.md');
    expect(out).toContain('[files undone]');
    expect(out).not.toContain('\u001b');
    // The session stays in the given home and is listed there.
    const sessions = parseJsonLines((await runCli(['sessions', '--json'], { home })).stdout);
    expect(sessions).toEqual([expect.objectContaining({ title: 'clawsmith demo' })]);
  });
});
