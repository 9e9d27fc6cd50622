import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { preparedOncePerFile, testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli, writeScript } from './cli-harness.js';

/**
 * Two turns, run once for the file and handed to each test as they left the home and the
 * workspace: the first creates a.txt and edits b.txt, the second edits a.txt.
 */
const twoTurns = preparedOncePerFile(['home', 'workspace', 'scripts'], async ({ home, workspace, scripts }) => {
  writeFileSync(join(workspace, 'b.txt'), 'b original\n');
  const first = writeScript(
    scripts,
    [
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: 'a.txt', content: 'a from turn 1\n' } },
          { name: 'edit_file', arguments: { path: 'b.txt', oldText: 'b original', newText: 'b from turn 1' } },
        ],
      },
      { text: 'turn 1 done' },
    ],
    'first.json',
  );
  const second = writeScript(
    scripts,
    [
      {
        toolCalls: [
          { name: 'edit_file', arguments: { path: 'a.txt', oldText: 'a from turn 1', newText: 'a from turn 2' } },
        ],
      },
      { text: 'turn 2 done' },
    ],
    'second.json',
  );
  const one = await runCli(
    ['run', '--json', '--permission-mode', 'accept-edits', '--script', first, '--workspace', workspace, 'turn one'],
    { home },
  );
  expect(one.code, one.stderr).toBe(0);
  const sessionId = String(parseJsonLines(one.stdout)[0]!.sessionId);
  const two = await runCli(
    ['run', '--json', '--permission-mode', 'accept-edits', '--script', second, '--session', sessionId, 'turn two'],
    { home },
  );
  expect(two.code, two.stderr).toBe(0);
  const checkpoints = await runCli(['checkpoints', '--session', sessionId, '--json'], { home });
  expect(checkpoints.code).toBe(0);
  const points = parseJsonLines(checkpoints.stdout);
  expect(points.map((point) => point.sequence)).toEqual([1, 2]);
  expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('a from turn 2\n');
  const read = (path: string) =>
    existsSync(join(workspace, path)) ? readFileSync(join(workspace, path), 'utf8') : null;
  return { sessionId, turnIds: points.map((point) => String(point.turnId)), read };
});

describe('clawsmith undo', () => {
  it('undo files of the last turn puts back only what it changed; the diff shows the change first', async () => {
    const { home, sessionId, turnIds, read } = twoTurns();
    const diff = await runCli(['undo', 'diff', '2', 'a.txt', '--session', sessionId], { home });
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain('a.txt (modified)');
    expect(diff.stdout).toContain('-a from turn 1');
    expect(diff.stdout).toContain('+a from turn 2');

    const undo = await runCli(['undo', 'files', turnIds[1]!, '--session', sessionId, '--json'], { home });
    expect(undo.stderr).toBe('');
    expect(undo.code).toBe(0);
    expect(parseJsonLines(undo.stdout)).toEqual([
      expect.objectContaining({ scope: 'files', turnId: turnIds[1], restoredPaths: ['a.txt'] }),
    ]);
    expect(read('a.txt')).toBe('a from turn 1\n');
    expect(read('b.txt')).toBe('b from turn 1\n');
    const points = parseJsonLines((await runCli(['checkpoints', '--session', sessionId, '--json'], { home })).stdout);
    expect(points.map((point) => point.undone)).toEqual([false, true]);
  });

  it('undo files of the first turn reverts it and every later turn: created files go, edited ones come back', async () => {
    const { home, sessionId, read } = twoTurns();
    const undo = await runCli(['undo', 'files', '1', '--session', sessionId], { home });
    expect(undo.code).toBe(0);
    expect(undo.stdout).toContain('Undid turn');
    expect(read('a.txt')).toBeNull();
    expect(read('b.txt')).toBe('b original\n');
  });

  it('undo session cuts the conversation and leaves the files', async () => {
    const { home, sessionId, read } = twoTurns();
    const undo = await runCli(['undo', 'session', '2', '--session', sessionId, '--json'], { home });
    expect(undo.code).toBe(0);
    const [result] = parseJsonLines(undo.stdout);
    expect(result).toMatchObject({ scope: 'session', restoredPaths: [] });
    expect(typeof result!.messageCount).toBe('number');
    expect(read('a.txt')).toBe('a from turn 2\n');
    // The conversation now ends before turn 2: continuing appends after what is left.
    const next = await runCli(
      ['run', '--json', '--script', writeScript(testdir(), [{ text: 'again' }]), '--session', sessionId, 'after undo'],
      { home },
    );
    expect(next.code).toBe(0);
    expect(parseJsonLines(next.stdout).find((event) => event.type === 'turn.started')).toMatchObject({
      prompt: 'after undo',
    });
  });

  it('undo all restores files and conversation', async () => {
    const { home, sessionId, read } = twoTurns();
    const undo = await runCli(['undo', 'all', '1', '--session', sessionId, '--json'], { home });
    expect(undo.code).toBe(0);
    const [result] = parseJsonLines(undo.stdout);
    expect(result).toMatchObject({ scope: 'all', messageCount: 0 });
    expect([...(result!.restoredPaths as string[])].sort()).toEqual(['a.txt', 'b.txt']);
    expect(read('a.txt')).toBeNull();
    expect(read('b.txt')).toBe('b original\n');
  });

  it('refuses an undo when a file was edited by hand since, lists the path, exits 3 and changes nothing', async () => {
    const { home, workspace, sessionId, read } = twoTurns();
    writeFileSync(join(workspace, 'a.txt'), 'edited by a person\n');
    for (const scope of ['files', 'all']) {
      const undo = await runCli(['undo', scope, '1', '--session', sessionId], { home });
      expect(undo.code).toBe(3);
      expect(undo.stdout).toBe('');
      expect(undo.stderr).toContain('[checkpoint_conflict]');
      expect(undo.stderr).toMatch(/Conflicting paths[^\n]*\n\s+a\.txt/);
    }
    expect(read('a.txt')).toBe('edited by a person\n');
    expect(read('b.txt')).toBe('b from turn 1\n');
    const points = parseJsonLines((await runCli(['checkpoints', '--session', sessionId, '--json'], { home })).stdout);
    expect(points.map((point) => point.undone)).toEqual([false, false]);
  });

  it('names an unknown turn and an unknown session', async () => {
    const { home, sessionId } = twoTurns();
    const turn = await runCli(['undo', 'files', '7', '--session', sessionId], { home });
    expect(turn.code).toBe(1);
    expect(turn.stderr).toContain('[turn_not_found]');
    const session = await runCli(['checkpoints', '--session', 'nope'], { home });
    expect(session.code).toBe(1);
    expect(session.stderr).toContain('nope');
  });
});

describe('clawsmith sessions and fork', () => {
  it('lists sessions and forks one at a turn, leaving the original unchanged', async () => {
    const { home, sessionId, turnIds } = twoTurns();
    const listed = parseJsonLines((await runCli(['sessions', '--json'], { home })).stdout);
    expect(listed.map((session) => session.id)).toEqual([sessionId]);
    const fork = await runCli(['fork', sessionId, '--at', '1', '--json'], { home });
    expect(fork.code).toBe(0);
    const [child] = parseJsonLines(fork.stdout);
    expect(child).toMatchObject({ parentSessionId: sessionId, forkedAtTurnId: turnIds[0] });
    const after = parseJsonLines((await runCli(['sessions', '--json'], { home })).stdout);
    expect(after.map((session) => session.id).sort()).toEqual([sessionId, child!.id].sort());
    const human = await runCli(['sessions'], { home });
    expect(human.stdout).toContain(`fork of ${sessionId}`);
    const parentPoints = parseJsonLines(
      (await runCli(['checkpoints', '--session', sessionId, '--json'], { home })).stdout,
    );
    expect(parentPoints).toHaveLength(2);
  });
});
