import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { snapshotTree, testdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CheckpointConflictError, CheckpointError, undoConflictsOf } from './index.js';
import { beginTurn, openStore, toolDelete, toolRename, toolWrite } from './__fixtures__/tool-simulator.js';

async function setup(tree: Record<string, string | { content: string; mode: number }>) {
  const home = testdir({});
  const root = testdir(tree);
  const opened = await openStore(home);
  onTestFinished(() => opened.db.destroy());
  return { root, ...opened };
}

async function expectError(promise: Promise<unknown>, code: string): Promise<unknown> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toMatchObject({ code });
  return error;
}

describe('undoFiles', () => {
  it('reverts the turn and every later turn newest first: edits, creations, deletions with their mode, renames', async () => {
    const { root, store } = await setup({
      'a.txt': 'a0\n',
      'run.sh': { content: '#!/bin/sh\n', mode: 0o755 },
      'old.txt': 'old\n',
    });
    const first = await beginTurn(store, root, 't1');
    await toolWrite(first.recorder, root, 'a.txt', 'a1\n');
    await first.complete();
    const afterFirst = snapshotTree(root);
    const second = await beginTurn(store, root, 't2');
    await toolWrite(second.recorder, root, 'a.txt', 'a2\n');
    await toolWrite(second.recorder, root, 'a.txt', 'a3\n');
    await toolWrite(second.recorder, root, 'new/deep/created.txt', 'created\n');
    await toolDelete(second.recorder, root, 'run.sh');
    await second.complete();
    const third = await beginTurn(store, root, 't3');
    await toolRename(third.recorder, root, 'old.txt', 'renamed.txt');
    await third.complete();

    const result = await store.undoFiles('session-1', 't2');
    expect(result.undoneTurnIds).toEqual(['t3', 't2']);
    expect([...result.deleted].sort()).toEqual(['new/deep/created.txt', 'renamed.txt']);
    expect([...result.restored].sort()).toEqual(['a.txt', 'old.txt', 'run.sh']);
    const now = snapshotTree(root);
    delete now['new'];
    delete now['new/deep'];
    expect(now).toEqual(afterFirst);
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('a1\n');
    expect(lstatSync(join(root, 'run.sh')).mode & 0o777).toBe(0o755);
    expect((await store.listRestorePoints('session-1')).map((point) => [point.turnId, point.undone])).toEqual([
      ['t1', false],
      ['t2', true],
      ['t3', true],
    ]);
    await store.undoFiles('session-1', 't1');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('a0\n');
  });

  it('refuses when a person edited the file after the tool wrote it, and changes nothing', async () => {
    const { root, store } = await setup({ 'a.txt': 'original\n', 'b.txt': 'b\n' });
    const turn = await beginTurn(store, root, 't1');
    await toolWrite(turn.recorder, root, 'a.txt', 'agent\n');
    await toolWrite(turn.recorder, root, 'b.txt', 'agent b\n');
    await turn.complete();
    writeFileSync(join(root, 'a.txt'), 'person\n');
    const snapshot = snapshotTree(root);
    const error = (await expectError(
      store.undoFiles('session-1', 't1'),
      'checkpoint_conflict',
    )) as CheckpointConflictError;
    expect(CheckpointConflictError.isInstance(error)).toBe(true);
    expect(error.conflicts).toEqual([
      {
        path: 'a.txt',
        reason: 'changed_on_disk',
        expected: { state: 'file', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
        found: { state: 'file', sha256: expect.stringMatching(/^[0-9a-f]{64}$/), mode: 0o644 },
      },
    ]);
    // What a consumer holding another copy of this package reads, without instanceof.
    expect(undoConflictsOf(error)).toBe(error.conflicts);
    expect(undoConflictsOf(new CheckpointError('checkpoint_not_found', 'no such turn'))).toBeUndefined();
    expect(undoConflictsOf(new Error('checkpoint_conflict'))).toBeUndefined();
    expect(snapshotTree(root)).toEqual(snapshot);
    expect((await store.getRestorePoint('session-1', 't1')).undone).toBe(false);
    expect(await store.precheckUndo('session-1', 't1')).toHaveLength(1);
  });

  it('treats a file replaced by a symlink to /etc/passwd as a conflict and writes nothing through it', async () => {
    const { root, store } = await setup({ 'config.txt': 'v0\n' });
    const passwd = readFileSync('/etc/passwd');
    const turn = await beginTurn(store, root, 't1');
    await toolWrite(turn.recorder, root, 'config.txt', 'v1\n');
    await turn.complete();
    rmSync(join(root, 'config.txt'));
    symlinkSync('/etc/passwd', join(root, 'config.txt'));
    const snapshot = snapshotTree(root);
    const error = (await expectError(
      store.undoFiles('session-1', 't1'),
      'checkpoint_conflict',
    )) as CheckpointConflictError;
    expect(error.conflicts[0]).toMatchObject({
      path: 'config.txt',
      found: { state: 'symlink', target: '/etc/passwd' },
    });
    expect(snapshotTree(root)).toEqual(snapshot);
    expect(readFileSync('/etc/passwd')).toEqual(passwd);
  });

  it('treats a folder on the way that became a symlink, or a path that became a folder, as a conflict', async () => {
    const outside = testdir({ 'x.txt': 'outside\n' });
    const { root, store } = await setup({ 'sub/x.txt': 'v0\n', 'y.txt': 'y0\n' });
    const turn = await beginTurn(store, root, 't1');
    await toolWrite(turn.recorder, root, 'sub/x.txt', 'v1\n');
    await toolWrite(turn.recorder, root, 'y.txt', 'y1\n');
    await turn.complete();
    rmSync(join(root, 'sub'), { recursive: true });
    symlinkSync(outside, join(root, 'sub'));
    rmSync(join(root, 'y.txt'));
    mkdirSync(join(root, 'y.txt'));
    const snapshot = snapshotTree(root);
    const error = (await expectError(
      store.undoFiles('session-1', 't1'),
      'checkpoint_conflict',
    )) as CheckpointConflictError;
    expect(error.conflicts.map((conflict) => [conflict.path, conflict.found.state])).toEqual([
      ['sub/x.txt', 'symlink'],
      ['y.txt', 'directory'],
    ]);
    expect(snapshotTree(root)).toEqual(snapshot);
    expect(readFileSync(join(outside, 'x.txt'), 'utf8')).toBe('outside\n');
  });

  it('refuses to undo a rename whose source path was recreated meanwhile', async () => {
    const { root, store } = await setup({ 'src.txt': 'moved\n' });
    const turn = await beginTurn(store, root, 't1');
    await toolRename(turn.recorder, root, 'src.txt', 'dst.txt');
    await turn.complete();
    writeFileSync(join(root, 'src.txt'), 'a person wrote a new file here\n');
    const snapshot = snapshotTree(root);
    const error = (await expectError(
      store.undoFiles('session-1', 't1'),
      'checkpoint_conflict',
    )) as CheckpointConflictError;
    expect(error.conflicts).toEqual([
      {
        path: 'src.txt',
        reason: 'changed_on_disk',
        expected: { state: 'absent' },
        found: { state: 'file', sha256: expect.any(String), mode: 0o644 },
      },
    ]);
    expect(snapshotTree(root)).toEqual(snapshot);
  });

  it('refuses when a path changed between two of the undone turns', async () => {
    const { root, store } = await setup({ 'a.txt': 'a0\n' });
    const first = await beginTurn(store, root, 't1');
    await toolWrite(first.recorder, root, 'a.txt', 'a1\n');
    await first.complete();
    writeFileSync(join(root, 'a.txt'), 'person\n');
    const second = await beginTurn(store, root, 't2');
    await toolWrite(second.recorder, root, 'a.txt', 'a2\n');
    await second.complete();
    const error = (await expectError(
      store.undoFiles('session-1', 't1'),
      'checkpoint_conflict',
    )) as CheckpointConflictError;
    expect(error.conflicts.map((conflict) => conflict.reason)).toEqual(['changed_between_turns']);
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('a2\n');
    await store.undoFiles('session-1', 't2');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('person\n');
  });

  it('never overwrites a file a person rewrote in place after the precheck, same size and same file', async () => {
    const { root, store } = await setup({ 'a.txt': 'original a\n', 'b.txt': 'original b\n' });
    const turn = await beginTurn(store, root, 't1');
    await toolWrite(turn.recorder, root, 'created.txt', 'created\n');
    await toolWrite(turn.recorder, root, 'a.txt', 'agent a\n');
    await toolWrite(turn.recorder, root, 'b.txt', 'agent b\n');
    await turn.complete();
    // Deletions come first: once created.txt is gone, the precheck has long read a.txt, which a
    // person now rewrites in place (same inode, same size): the undo must notice, not trust its plan.
    const result = await store.undoFiles('session-1', 't1', {
      onProgress: ({ path }) => {
        if (path !== 'created.txt') return;
        const descriptor = openSync(join(root, 'a.txt'), 'r+');
        writeSync(descriptor, 'PERSON\n', 0);
        closeSync(descriptor);
      },
    });
    expect(result.deleted).toEqual(['created.txt']);
    expect(result.restored).toEqual(['b.txt']);
    expect(result.lateConflicts).toMatchObject([{ path: 'a.txt', reason: 'changed_on_disk' }]);
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('PERSON\n\n');
    expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('original b\n');
  });

  it('says clearly when a point is already undone, unknown, or its turn still runs', async () => {
    const { root, store } = await setup({ 'a.txt': 'a0\n' });
    const turn = await beginTurn(store, root, 't1');
    await toolWrite(turn.recorder, root, 'a.txt', 'a1\n');
    await turn.complete();
    await store.undoFiles('session-1', 't1');
    await expectError(store.undoFiles('session-1', 't1'), 'checkpoint_already_undone');
    await expectError(store.undoFiles('session-1', 'nope'), 'checkpoint_not_found');
    await expectError(store.undoFiles('other-session', 't1'), 'checkpoint_not_found');
    const running = await beginTurn(store, root, 't2');
    await toolWrite(running.recorder, root, 'a.txt', 'a2\n');
    const error = await expectError(store.undoFiles('session-1', 't2'), 'checkpoint_turn_in_progress');
    expect(error).toMatchObject({ retryable: true });
    expect(existsSync(join(root, 'a.txt'))).toBe(true);
  });
});
