import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { sql } from 'kysely';
import { describe, expect, it, onTestFinished } from 'vitest';
import { beginTurn, openStore, toolWrite } from './__fixtures__/tool-simulator.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** One recorded turn (a.txt: "old" → "new"), so the blob of "old" exists to be pointed at. */
async function recordedTurn() {
  const home = testdir({});
  const root = testdir({ 'a.txt': 'old\n' });
  const outside = testdir({});
  const opened = await openStore(home);
  onTestFinished(() => opened.db.destroy());
  const turn = await beginTurn(opened.store, root, 't1');
  await toolWrite(turn.recorder, root, 'a.txt', 'new\n');
  await turn.complete();
  return { root, outside, ...opened };
}

/** What a command that could write the home's database would plant: an "interrupted" undo by a dead process. */
async function forgeJournal(
  db: Awaited<ReturnType<typeof recordedTurn>>['db'],
  entry: { root: string; path: string },
  turnIds: string[] = ['t1'],
) {
  await sql`insert into checkpoint_restore_journal (journal_id, session_id, turn_id, state, undone_turn_ids, owner_host, owner_pid, created_at, finished_at)
    values ('forged', 'session-1', 't1', 'applying', ${JSON.stringify(turnIds)}, 'elsewhere', 1, 0, null)`.execute(db);
  await sql`insert into checkpoint_restore_entry (journal_id, ordinal, workspace_root, path, expected_state, expected_sha256, target_state, target_sha256, target_mode)
    values ('forged', 0, ${entry.root}, ${entry.path}, 'absent', null, 'file', ${sha256('old\n')}, ${0o755})`.execute(
    db,
  );
}

async function journalState(db: Awaited<ReturnType<typeof recordedTurn>>['db']) {
  const result = await sql<{
    state: string;
  }>`select state from checkpoint_restore_journal where journal_id = 'forged'`.execute(db);
  return result.rows[0]?.state;
}

describe('resumeInterruptedUndo with a forged journal', () => {
  it('rejects an entry outside the recorded workspace root and writes nothing there', async () => {
    const { db, store, root, outside } = await recordedTurn();
    await forgeJournal(db, { root: outside, path: 'pwned.sh' });
    await expect(store.resumeInterruptedUndo()).rejects.toMatchObject({ code: 'checkpoint_journal_invalid' });
    expect(existsSync(join(outside, 'pwned.sh'))).toBe(false);
    expect(await journalState(db)).toBe('rejected');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('new\n');
    expect(await store.resumeInterruptedUndo()).toEqual([]);
  });

  it('rejects a path the turn never recorded, or one that climbs out, inside the right root', async () => {
    const { db, store, root, outside } = await recordedTurn();
    const climbing = `../${outside.split('/').at(-1)}/pwned.sh`;
    await forgeJournal(db, { root, path: climbing });
    await expect(store.resumeInterruptedUndo()).rejects.toMatchObject({ code: 'checkpoint_journal_invalid' });
    expect(existsSync(join(outside, 'pwned.sh'))).toBe(false);
    expect(await journalState(db)).toBe('rejected');
  });

  it('rejects turn ids the session never recorded', async () => {
    const { db, store, root } = await recordedTurn();
    await forgeJournal(db, { root, path: 'a.txt' }, ['t-never']);
    await expect(store.resumeInterruptedUndo()).rejects.toMatchObject({ code: 'checkpoint_journal_invalid' });
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('new\n');
  });
});
