import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { createDirectWorkspaceWall, type WorkspaceWall } from '@clawsmith/tool-protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import { beginTurn, openStore, toolWrite } from './__fixtures__/tool-simulator.js';

/** The in-process wall, running `beforeCopy` just before the temporary copy of a path is created. */
function wallWithHook(beforeCopy: (copyPath: string) => void): WorkspaceWall {
  const direct = createDirectWorkspaceWall();
  return {
    ...direct,
    async apply(batch) {
      for (const mutation of batch.mutations) if (mutation.kind === 'create') beforeCopy(mutation.path);
      await direct.apply(batch);
    },
  };
}

describe('undoFiles, a file changed after its last check', () => {
  it('leaves a file a person rewrote between its check and its copy, as a late conflict', async () => {
    const root = testdir({ 'a.txt': 'original a\n', 'b.txt': 'original b\n' });
    let rewritten = false;
    const wall = wallWithHook((copyPath) => {
      // The check of a.txt has just passed; the person's edit lands before its copy is written.
      if (!copyPath.includes('.a.txt.') || rewritten) return;
      writeFileSync(join(root, 'a.txt'), 'the person, longer than before\n');
      rewritten = true;
    });
    const { db, store } = await openStore(testdir({}), { wall });
    onTestFinished(() => db.destroy());
    const turn = await beginTurn(store, root, 't1');
    await toolWrite(turn.recorder, root, 'a.txt', 'agent a\n');
    await toolWrite(turn.recorder, root, 'b.txt', 'agent b\n');
    await turn.complete();

    const result = await store.undoFiles('session-1', 't1');
    expect(rewritten).toBe(true);
    expect(result.restored).toEqual(['b.txt']);
    expect(result.lateConflicts).toMatchObject([{ path: 'a.txt', reason: 'changed_on_disk' }]);
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('the person, longer than before\n');
    expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('original b\n');
  });
});
