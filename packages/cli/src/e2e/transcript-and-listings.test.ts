// The command line's rough edges found by trying it as a new user would (second round): a small
// command output shown inline rather than as an artifact, a denial said once, an edit's diff at
// the file's real line numbers (in `run`, and in `chat` as it runs).
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { runCli, writeScript } from './cli-harness.js';

describe('the transcript of clawsmith run', () => {
  it('shows a 6-byte command output inline, with no artifact for it', async () => {
    const home = testdir();
    const workspace = testdir();
    const script = writeScript(home, [
      { toolCalls: [{ id: 'c1', name: 'run_command', arguments: { command: 'echo hello' } }] },
      { text: 'done' },
    ]);
    const run = await runCli(
      ['run', '--script', script, '--workspace', workspace, '--permission-mode', 'full-auto', 'say hello'],
      { home },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/✓ success run_command \$ echo hello/);
    expect(run.stdout).toMatch(/\n\s+│ hello\n/);
    expect(run.stdout).not.toContain('artifact');
  });

  it('says a denial once', async () => {
    const home = testdir();
    const workspace = testdir();
    const script = writeScript(home, [
      { toolCalls: [{ id: 'c1', name: 'run_command', arguments: { command: 'echo nope' } }] },
      { text: 'done' },
    ]);
    const run = await runCli(
      ['run', '--script', script, '--workspace', workspace, '--permission-mode', 'read-only', 'try'],
      { home },
    );
    expect(run.code).toBe(0);
    expect(run.stdout.match(/⊘ denied/g)).toHaveLength(1);
    expect(run.stdout).toContain('⊘ denied (permission_denied) run_command\n');
    expect(run.stdout).toContain('Permission denied for run_command: mode read-only: execute is not allowed.');
    expect(run.stdout.match(/mode read-only/g)).toHaveLength(1);
  });

  it('shows an edit at the file’s own line numbers', async () => {
    const home = testdir();
    const workspace = testdir({ 'notes.txt': 'one\ntwo\nthree\nfour\nfive\nsix\n' });
    const script = writeScript(home, [
      {
        toolCalls: [
          { id: 'e1', name: 'edit_file', arguments: { path: 'notes.txt', oldText: 'five', newText: 'FIVE' } },
        ],
      },
      { text: 'done' },
    ]);
    const run = await runCli(
      ['run', '--script', script, '--workspace', workspace, '--permission-mode', 'full-auto', 'shout five'],
      { home },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      '✓ success edit_file Edited notes.txt\n    │ @@ -5,1 +5,1 @@\n    │ -five\n    │ +FIVE\n',
    );
  });
});

describe('clawsmith sessions and checkpoints', () => {
  it('sessions show the latest turn’s status and the turn count; checkpoints list the files each turn changed', async () => {
    const home = testdir();
    const workspace = testdir({ 'docs/README.md': 'docs\n' });
    const script = writeScript(home, [
      {
        toolCalls: [
          { id: 'w1', name: 'write_file', arguments: { path: 'a.txt', content: 'a\n' } },
          { id: 'w2', name: 'write_file', arguments: { path: 'docs/b.md', content: 'b\n' } },
        ],
      },
      { text: 'done' },
      { text: 'nothing to change' },
    ]);
    const args = ['run', '--script', script, '--workspace', workspace, '--permission-mode', 'full-auto'];
    expect((await runCli([...args, 'write two files'], { home })).code).toBe(0);
    const [line] = (await runCli(['sessions', '--json'], { home })).stdout.trim().split('\n');
    const session = JSON.parse(line!) as { id: string; turnCount: number; lastTurnStatus: string };
    expect(session).toMatchObject({ turnCount: 1, lastTurnStatus: 'completed' });
    expect((await runCli([...args, '--session', session.id, 'anything else?'], { home })).code).toBe(0);

    const listed = await runCli(['sessions'], { home });
    expect(listed.stdout).toContain(`${session.id}  completed · 2 turns  `);
    const points = await runCli(['checkpoints', '--session', session.id], { home });
    const lines = points.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^#1 \S+ completed {2}write two files$/);
    expect(lines[1]).toBe('    files: a.txt, docs/b.md');
    expect(lines[2]).toMatch(/^#2 \S+ completed {2}anything else\?$/);
    const json = (await runCli(['checkpoints', '--json', '--session', session.id], { home })).stdout
      .trim()
      .split('\n')
      .map((entry) => JSON.parse(entry) as { changedPaths: string[] });
    expect(json.map((point) => point.changedPaths)).toEqual([['a.txt', 'docs/b.md'], []]);
  });
});
