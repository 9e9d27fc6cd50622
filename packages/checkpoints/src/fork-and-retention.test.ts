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
      .map((row) => Buffer.from(row.content).toString())
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
