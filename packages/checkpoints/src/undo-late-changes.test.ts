import { linkSync, lstatSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { createDirectWorkspaceWall, type WorkspaceMutation, type WorkspaceWall } from '@clawsmith/tool-protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import { beginTurn, openStore, toolWrite } from './__fixtures__/tool-simulator.js';

/** The in-process wall, running `beforeWrite` just before each mutation that writes a file's bytes. */
function wallWithHook(beforeWrite: (mutation: WorkspaceMutation) => void): WorkspaceWall {
  const direct = createDirectWorkspaceWall();
  return {
    ...direct,
    async apply(batch) {
      for (const mutation of batch.mutations)
        if (mutation.kind === 'create' || mutation.kind === 'overwrite') beforeWrite(mutation);
      await direct.apply(batch);
    },
  };
}

describe('undoFiles, a file changed after its last check', () => {
  // In place: a.txt is written over (its inode kept). By copy: a.txt has a second name, which an
  // in-place write would change too, so a temporary copy is renamed over it.
  for (const route of ['in place', 'by copy'] as const) {
    it(`leaves a file a person rewrote between its check and its write, as a late conflict (${route})`, async () => {
      const root = testdir({ 'a.txt': 'original a\n', 'b.txt': 'original b\n' });
      const seen: string[] = [];
      let rewritten = false;
      const wall = wallWithHook((mutation) => {
        if (mutation.kind !== 'create' && mutation.kind !== 'overwrite') return;
        seen.push(`${mutation.kind} ${mutation.path.slice(root.length + 1)}`);
        // The check of a.txt has just passed; the person's edit lands before its bytes are written
        // (by copy: after the in-place write was declined for the second name).
        const writesA = route === 'in place' ? mutation.path.endsWith('/a.txt') : mutation.path.includes('/.a.txt.');
        if (rewritten || !writesA) return;
        writeFileSync(join(root, 'a.txt'), 'the person, longer than before\n');
        rewritten = true;
      });
      const { db, store } = await openStore(testdir({}), { wall });
      onTestFinished(() => db.destroy());
      const turn = await beginTurn(store, root, 't1');
      await toolWrite(turn.recorder, root, 'a.txt', 'agent a\n');
      await toolWrite(turn.recorder, root, 'b.txt', 'agent b\n');
      await turn.complete();
      if (route === 'by copy') linkSync(join(root, 'a.txt'), join(root, 'a-second-name.txt'));
      const inode = lstatSync(join(root, 'b.txt')).ino;

      const result = await store.undoFiles('session-1', 't1');
      expect(rewritten).toBe(true);
      expect(seen.map((write) => write.replace(/-[0-9a-f]{8}$/, ''))).toEqual(
        route === 'in place'
          ? ['overwrite a.txt', 'overwrite b.txt']
          : ['overwrite a.txt', 'create .a.txt.clawsmith-undo', 'overwrite b.txt'],
      );
      expect(result.restored).toEqual(['b.txt']);
      expect(result.lateConflicts).toMatchObject([{ path: 'a.txt', reason: 'changed_on_disk' }]);
      expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('the person, longer than before\n');
      expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('original b\n');
      expect(lstatSync(join(root, 'b.txt')).ino).toBe(inode);
    });
  }
});
