import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { beginTurn, openStore, toolWrite } from './__fixtures__/tool-simulator.js';

async function setup(tree: Record<string, string>, now?: () => number) {
  const root = testdir(tree);
  const opened = await openStore(testdir({}), now === undefined ? {} : { now });
  onTestFinished(() => opened.db.destroy());
  return { root, ...opened };
}

describe('forkSession', () => {
  it("marks only the child's points undone; the parent stays restorable and refuses a file the child changed", async () => {
    const { root, store } = await setup({ 'a.txt': 'v0\n' });
    const turn = await beginTurn(store, root, 't1', 'parent');
    await toolWrite(turn.recorder, root, 'a.txt', 'v1\n');
    await turn.complete();
    const parentBefore = await store.listRestorePoints('parent');

    expect(await store.forkSession('parent', 'child')).toEqual({ sessionId: 'child', copiedTurnIds: ['t1'] });
    await store.undoFiles('child', 't1');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('v0\n');
    expect((await store.getRestorePoint('child', 't1')).undone).toBe(true);
    expect(await store.listRestorePoints('parent')).toEqual(parentBefore);

    expect(await store.precheckUndo('parent', 't1')).toMatchObject([{ path: 'a.txt', reason: 'changed_on_disk' }]);
    writeFileSync(join(root, 'a.txt'), 'v1\n');
    await store.undoFiles('parent', 't1');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('v0\n');
    await expect(store.forkSession('parent', 'child')).rejects.toMatchObject({ code: 'checkpoint_session_exists' });
    await expect(store.forkSession('parent', 'other', { upToTurnId: 'missing' })).rejects.toMatchObject({
      code: 'checkpoint_not_found',
    });
  });
});

describe('prune', () => {
  it('keeps an in-progress turn and its pre-images whatever the limits, and its undo still works', async () => {
    let clock = 1_000;
    const { root, store, db } = await setup({ 'a.txt': 'precious\n' }, () => clock);
    const running = await beginTurn(store, root, 't1');
    await toolWrite(running.recorder, root, 'a.txt', 'agent\n');
    clock += 365 * 24 * 3600 * 1000;
    const result = await store.prune({ maxAgeMs: 0, maxBytesPerSession: 0, maxBytesTotal: 0, keepNewestPerSession: 0 });
    expect(result.deletedRestorePoints).toEqual([]);
    expect(result.deletedBlobs).toBe(0);
    await running.complete();
    await store.undoFiles('session-1', 't1');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('precious\n');
    const blobs = await db.selectFrom('checkpoint_blob').select('sha256').execute();
    expect(blobs.length).toBe(2);
  });

  it('deletes expired points beyond the newest kept ones, then only blobs nobody refers to', async () => {
    let clock = 0;
    const day = 24 * 3600 * 1000;
    const { root, store, db } = await setup({ 'a.txt': 'a0\n', 'shared.txt': 'same\n' }, () => clock);
    for (let index = 1; index <= 8; index += 1) {
      const turn = await beginTurn(store, root, `t${index}`);
      await toolWrite(turn.recorder, root, 'a.txt', `a${index}\n`);
      await turn.complete();
      clock += day;
    }
    const other = await beginTurn(store, root, 'o1', 'session-2');
    await toolWrite(other.recorder, root, 'b.txt', 'b\n');
    await other.complete();
    clock += 40 * day;
    const result = await store.prune({ keepNewestPerSession: 5 });
    expect(result.deletedRestorePoints.map((point) => `${point.sessionId}/${point.turnId}`).sort()).toEqual([
      'session-1/t1',
      'session-1/t2',
      'session-1/t3',
    ]);
    expect((await store.listRestorePoints('session-1')).map((point) => point.turnId)).toEqual([
      't4',
      't5',
      't6',
      't7',
      't8',
    ]);
    expect(await store.listRestorePoints('session-2')).toHaveLength(1);
    // t4 (the oldest kept) found a3: a0 to a2 were only referred to by the pruned points.
    const contents = (await db.selectFrom('checkpoint_blob').select('content').execute())
      .map((row) => Buffer.from(row.content as Uint8Array).toString())
      .sort();
    expect(contents).toEqual(['a3\n', 'a4\n', 'a5\n', 'a6\n', 'a7\n', 'a8\n', 'b\n']);
    await store.undoFiles('session-1', 't4');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('a3\n');
  });

  it('enforces the per-session byte quota from the oldest point', async () => {
    const { root, store } = await setup({});
    for (let index = 1; index <= 4; index += 1) {
      const turn = await beginTurn(store, root, `t${index}`);
      await toolWrite(turn.recorder, root, `f${index}.txt`, 'x'.repeat(1000));
      await turn.complete();
    }
    const result = await store.prune({ keepNewestPerSession: 1, maxBytesPerSession: 2500 });
    expect(result.deletedRestorePoints.map((point) => point.turnId)).toEqual(['t2', 't1']);
  });
});

describe('prune dry run and kept figures', () => {
  it('reports exactly what a real prune removes and keeps, and changes nothing', async () => {
    let clock = 0;
    const day = 24 * 3600 * 1000;
    const { root, store, db } = await setup({ 'a.txt': 'a0\n' }, () => clock);
    for (let index = 1; index <= 7; index += 1) {
      const turn = await beginTurn(store, root, `t${index}`);
      await toolWrite(turn.recorder, root, 'a.txt', `a${index}\n`);
      await turn.complete();
      clock += day;
    }
    clock += 40 * day;
    const blobsBefore = await db.selectFrom('checkpoint_blob').select('sha256').orderBy('sha256').execute();
    const pointsBefore = await store.listRestorePoints('session-1');
    const dry = await store.prune({ dryRun: true });
    expect(dry.dryRun).toBe(true);
    expect(await store.listRestorePoints('session-1')).toEqual(pointsBefore);
    expect(await db.selectFrom('checkpoint_blob').select('sha256').orderBy('sha256').execute()).toEqual(blobsBefore);
    const real = await store.prune();
    expect(real).toEqual({ ...dry, dryRun: false });
    expect(real.deletedRestorePoints.map((point) => point.turnId).sort()).toEqual(['t1', 't2']);
    expect(real.keptRestorePoints).toBe(5);
    expect(real.keptBlobBytes).toBe('a2\n'.length * 6);
  });
});

describe('deleteSession', () => {
  it("removes one session's points and the blobs only it used; another session's undo still works", async () => {
    const { root, store, db } = await setup({ 'shared.txt': 'base\n' });
    const gone = await beginTurn(store, root, 'g1', 'doomed');
    await toolWrite(gone.recorder, root, 'only-doomed.txt', 'doomed only\n');
    await toolWrite(gone.recorder, root, 'shared.txt', 'shared after\n');
    await gone.complete();
    const kept = await beginTurn(store, root, 'k1', 'kept');
    await toolWrite(kept.recorder, root, 'shared.txt', 'kept after\n');
    await kept.complete();

    expect(await store.sessionBytes('doomed')).toBeGreaterThan(0);
    const result = await store.deleteSession('doomed');
    expect(result.deletedRestorePoints).toBe(1);
    // Its new file and the shared file's original text: nobody else refers to them.
    expect(result.deletedBlobs).toBe(2);
    expect(await store.listRestorePoints('doomed')).toEqual([]);
    expect(await store.sessionBytes('doomed')).toBe(0);
    const contents = (await db.selectFrom('checkpoint_blob').select('content').execute())
      .map((row) => Buffer.from(row.content as Uint8Array).toString())
      .sort();
    expect(contents).toEqual(['kept after\n', 'shared after\n']);
    await store.undoFiles('kept', 'k1');
    expect(readFileSync(join(root, 'shared.txt'), 'utf8')).toBe('shared after\n');
    expect(await store.deleteSession('doomed')).toEqual({
      deletedRestorePoints: 0,
      deletedBlobs: 0,
      freedBlobBytes: 0,
    });
  });

  it('refuses while an undo of the session is being applied, and keeps everything', async () => {
    const { root, store, db } = await setup({});
    const turn = await beginTurn(store, root, 't1', 'busy');
    await toolWrite(turn.recorder, root, 'a.txt', 'x\n');
    await turn.complete();
    // What a process that died in the middle of an undo leaves behind.
    await db
      .insertInto('checkpoint_restore_journal')
      .values({
        journal_id: 'j1',
        session_id: 'busy',
        turn_id: 't1',
        state: 'applying',
        undone_turn_ids: '["t1"]',
        owner_host: 'elsewhere',
        owner_pid: 1,
        created_at: 0,
        finished_at: null,
      })
      .execute();
    await expect(store.deleteSession('busy')).rejects.toMatchObject({ code: 'checkpoint_undo_in_progress' });
    expect(await store.listRestorePoints('busy')).toHaveLength(1);
  });
});
