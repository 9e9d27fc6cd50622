import { join } from 'node:path';
import Database from 'better-sqlite3';
import { testdir } from '@clawsmith/test-utils';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { CheckpointTables, RestoreJournalRow } from './checkpoint-schema.js';
import { sqliteHandleOf } from './checkpoint-database.js';
import { createCheckpointStore, migrateCheckpoints, withStatementCache } from './index.js';
import { writeJournalStart, type JournalDatabase } from './journal-writes.js';
import { beginTurn, openStore, toolWrite } from './__fixtures__/tool-simulator.js';

/** The same SQLite schema twice: once with the host's connection known (prepared statements), once without (query builder). */
async function bothPaths(): Promise<{ path: string; database: JournalDatabase }[]> {
  const direct = await openStore(testdir({}));
  onTestFinished(() => direct.db.destroy());
  const portable = new Kysely<Record<string, never>>({
    dialect: new SqliteDialect({ database: withStatementCache(new Database(join(testdir({}), 'clawsmith.db'))) }),
  });
  onTestFinished(() => portable.destroy());
  await migrateCheckpoints(portable);
  const asTables = (db: object) => db as Kysely<CheckpointTables>;
  expect(sqliteHandleOf(direct.db)).toBeDefined();
  return [
    { path: 'prepared statements', database: { db: asTables(direct.db), sqlite: sqliteHandleOf(direct.db) } },
    { path: 'query builder', database: { db: asTables(portable) } },
  ];
}

/** Three completed turns of one session, each writing `a.txt`. */
async function threeTurns({ db }: JournalDatabase) {
  const store = createCheckpointStore({ db });
  const root = testdir({ 'a.txt': 'zero\n' });
  for (const [index, turnId] of ['t1', 't2', 't3'].entries()) {
    const turn = await beginTurn(store, root, turnId);
    await toolWrite(turn.recorder, root, 'a.txt', `turn ${index + 1}\n`);
    await turn.complete();
  }
  return root;
}

const journal = (journalId: string): RestoreJournalRow => ({
  journal_id: journalId,
  session_id: 'session-1',
  turn_id: 't2',
  state: 'applying',
  undone_turn_ids: JSON.stringify(['t3', 't2']),
  owner_host: 'host',
  owner_pid: 1,
  created_at: 1000,
  finished_at: null,
});
const entry = (journalId: string, root: string) => ({
  journal_id: journalId,
  ordinal: 0,
  workspace_root: root,
  path: 'a.txt',
  expected_state: 'file',
  expected_sha256: 'e'.repeat(64),
  target_state: 'file' as const,
  target_sha256: 't'.repeat(64),
  target_mode: 0o644,
});

async function stateOf(db: Kysely<CheckpointTables>) {
  return {
    points: (
      await sql<{
        turn_id: string;
        undone_at: number | null;
      }>`select turn_id, undone_at from checkpoint_restore_point order by sequence`.execute(db)
    ).rows,
    journals: (await sql`select * from checkpoint_restore_journal`.execute(db)).rows,
    entries: (await sql`select * from checkpoint_restore_entry`.execute(db)).rows,
  };
}

describe(writeJournalStart, () => {
  it('marks exactly the planned turns and writes the journal and its entries, the same on both paths', async () => {
    const states = [];
    for (const { database } of await bothPaths()) {
      const root = await threeTurns(database);
      await writeJournalStart(database, { sessionId: 'session-1', sequence: 2, turnIds: ['t3', 't2'] }, journal('j1'), [
        entry('j1', root),
      ]);
      const state = await stateOf(database.db);
      states.push({ ...state, entries: state.entries.map((row) => ({ ...(row as object), workspace_root: 'root' })) });
    }
    expect(states[0]).toEqual(states[1]);
    expect(states[0]!.points).toEqual([
      { turn_id: 't1', undone_at: null },
      { turn_id: 't2', undone_at: 1000 },
      { turn_id: 't3', undone_at: 1000 },
    ]);
    expect(states[0]!.journals).toMatchObject([
      { journal_id: 'j1', state: 'applying', undone_turn_ids: '["t3","t2"]' },
    ]);
    expect(states[0]!.entries).toMatchObject([{ journal_id: 'j1', ordinal: 0, path: 'a.txt', target_mode: 0o644 }]);
  });

  it.each([
    ['a later turn is left out of the batch', ['t2']],
    ['a turn of the batch is already undone', ['t3', 't2']],
    ['another undo of the session is being applied', ['t3']],
  ])('writes nothing and answers checkpoint_undo_in_progress when %s', async (situation, turnIds) => {
    for (const { path, database } of await bothPaths()) {
      const root = await threeTurns(database);
      if (situation === 'a turn of the batch is already undone')
        await sql`update checkpoint_restore_point set undone_at = 5 where turn_id = 't3'`.execute(database.db);
      if (situation === 'another undo of the session is being applied')
        await sql`insert into checkpoint_restore_journal (journal_id, session_id, turn_id, state, undone_turn_ids, owner_host, owner_pid, created_at)
          values ('other', 'session-1', 't3', 'applying', '[]', 'host', 1, 0)`.execute(database.db);
      const before = await stateOf(database.db);
      const sequence = turnIds.includes('t2') ? 2 : 3;
      await expect(
        writeJournalStart(database, { sessionId: 'session-1', sequence, turnIds }, journal('j1'), [entry('j1', root)]),
        path,
      ).rejects.toMatchObject({ code: 'checkpoint_undo_in_progress', retryable: true });
      expect(await stateOf(database.db), path).toEqual(before);
    }
  });
});
