import { readdirSync } from 'node:fs';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { runCli, writeScript } from './cli-harness.js';

const WRITE_THEN_DONE = [
  { toolCalls: [{ id: 'w1', name: 'write_file', arguments: { path: 'a.txt', content: 'hi\n' } }] },
  { text: 'done' },
];

async function sessionIds(home: string): Promise<string[]> {
  const listed = await runCli(['sessions', '--json'], { home });
  return listed.stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { id: string }).id);
}

describe('rough edges of the command line', () => {
  it('undoing an already-undone conversation says so, and checkpoints still lists the turn with status and prompt', async () => {
    const home = testdir();
    const workspace = testdir();
    const script = writeScript(home, WRITE_THEN_DONE);
    const run = await runCli(
      ['run', '--script', script, '--workspace', workspace, '--permission-mode', 'full-auto', 'make a'],
      { home },
    );
    expect(run.code).toBe(0);
    const [session] = await sessionIds(home);
    expect((await runCli(['undo', 'session', '1', '--session', session!], { home })).code).toBe(0);
    const again = await runCli(['undo', 'session', '1', '--session', session!], { home });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('[turn_already_undone]');
    expect(again.stderr).toContain('already undone');
    const points = await runCli(['checkpoints', '--session', session!], { home });
    expect(points.stdout).toMatch(/#1 \S+ completed \[conversation undone\] {2}make a/);
    const json = await runCli(['checkpoints', '--json', '--session', session!], { home });
    expect(JSON.parse(json.stdout.trim())).toMatchObject({
      status: 'completed',
      prompt: 'make a',
      conversationUndone: true,
    });
    // Its files can still be put back.
    const files = await runCli(['undo', 'files', '1', '--session', session!], { home });
    expect(files.stdout).toContain('restored a.txt');
    // Twice: the error points at the command that shows what is undone, not at a library function.
    const filesAgain = await runCli(['undo', 'files', '1', '--session', session!], { home });
    expect(filesAgain.code).toBe(1);
    expect(filesAgain.stderr).toContain('already undone');
    expect(filesAgain.stderr).toContain(`clawsmith checkpoints --session ${session!}`);
    expect(filesAgain.stderr).toContain('[checkpoint_already_undone]');
    expect(filesAgain.stderr).not.toContain('listRestorePoints');
  });

  it('an unknown session is session_not_found in every command', async () => {
    const home = testdir();
    const workspace = testdir();
    const script = writeScript(home, WRITE_THEN_DONE);
    const commands = [
      ['checkpoints', '--session', 'nope'],
      ['undo', 'files', '1', '--session', 'nope'],
      ['undo', 'session', '1', '--session', 'nope'],
      ['undo', 'all', 'last', '--session', 'nope'],
      ['undo', 'diff', '1', 'a.txt', '--session', 'nope'],
      ['fork', 'nope'],
      ['run', '--script', script, '--session', 'nope', 'hi'],
      ['run', '--script', script, '--workspace', workspace, '--session', 'last', 'hi'],
    ];
    for (const args of commands) {
      const result = await runCli(args, { home, cwd: workspace });
      expect({ args, code: result.code, code_in_stderr: result.stderr.includes('[session_not_found]') }).toEqual({
        args,
        code: 1,
        code_in_stderr: true,
      });
    }
  });

  it('--workspace with --session of another workspace is an error; --session last is the newest of this workspace', async () => {
    const home = testdir();
    const first = testdir();
    const second = testdir();
    const script = writeScript(home, [{ text: 'one' }, { text: 'two' }, { text: 'three' }, { text: 'four' }]);
    expect((await runCli(['run', '--script', script, '--workspace', first, 'in first'], { home })).code).toBe(0);
    expect((await runCli(['run', '--script', script, '--workspace', second, 'in second'], { home })).code).toBe(0);
    const [newest, older] = await sessionIds(home);

    const mismatch = await runCli(['run', '--script', script, '--workspace', second, '--session', older!, 'hi'], {
      home,
    });
    expect(mismatch.code).toBe(2);
    expect(mismatch.stderr).toContain('[workspace_mismatch]');
    expect(mismatch.stderr).toContain(first);

    // `last` from the first workspace is the first workspace's session, though the second's is newer.
    const continued = await runCli(['run', '--script', script, '--session', 'last', 'again'], { home, cwd: first });
    expect(continued.code).toBe(0);
    expect(continued.stdout).toContain(`session ${older}`);
    const points = await runCli(['checkpoints', '--session', 'last'], { home, cwd: second });
    expect(points.stdout).toContain('in second');
    expect(newest).not.toBe(older);
  });

  it('a turn that ran past the end of its script says so in its last line', async () => {
    const home = testdir();
    const workspace = testdir();
    const script = writeScript(home, [
      { toolCalls: [{ id: 'r1', name: 'read_file', arguments: { path: 'missing.txt' } }] },
    ]);
    const run = await runCli(['run', '--script', script, '--workspace', workspace, 'read it'], { home });
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(
      /completed; 0 file\(s\) changed; the script ran out of responses/,
    );
    const enough = await runCli(
      ['run', '--script', writeScript(home, [{ text: 'ok' }], 'ok.json'), '--workspace', workspace, 'hi'],
      { home },
    );
    expect(enough.stdout).not.toContain('ran out');
  });

  it('running a command leaves nothing in the workspace but what the command made (no .clawsmith folder)', async () => {
    const home = testdir();
    const workspace = testdir({ 'keep.txt': 'kept\n' });
    const script = writeScript(home, [
      { toolCalls: [{ id: 'c1', name: 'run_command', arguments: { command: 'echo made > made.txt; exit 3' } }] },
      { text: 'done' },
    ]);
    const run = await runCli(
      ['run', '--script', script, '--workspace', workspace, '--permission-mode', 'full-auto', 'run it'],
      { home },
    );
    expect(run.stdout).toContain('exit 3');
    expect(readdirSync(workspace).sort()).toEqual(['keep.txt', 'made.txt']);
  });
});
