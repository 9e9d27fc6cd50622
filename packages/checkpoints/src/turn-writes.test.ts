import { setTimeout as delay } from 'node:timers/promises';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { testdir } from '@clawsmith/test-utils';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createCheckpointStore, migrateCheckpoints, withStatementCache, type CheckpointStore } from './index.js';
import { beginTurn, openStore, toolDelete, toolWrite } from './__fixtures__/tool-simulator.js';

/** A store whose host gave no connection: every write goes through the query builder. */
async function queryBuilderStore(folder: string) {
  const db = new Kysely<Record<string, never>>({
    dialect: new SqliteDialect({ database: withStatementCache(new Database(join(folder, 'clawsmith.db'))) }),
  });
  onTestFinished(() => db.destroy());
  await migrateCheckpoints(db);
  return { db, store: createCheckpointStore({ db }) };
}

async function aTurn(store: CheckpointStore, root: string) {
  const turn = await beginTurn(store, root, 't1');
  await toolWrite(turn.recorder, root, 'a.txt', 'one\nTWO\n');
  await toolWrite(turn.recorder, root, 'a.txt', 'one\nTWO\nthree\n');
  await toolDelete(turn.recorder, root, 'gone.txt');
  await toolWrite(turn.recorder, root, 'new.txt', 'new\n');
  await turn.recorder.beforeChange('same.txt', { state: 'file', content: Buffer.from('same\n'), mode: 0o644 });
  return turn.complete();
}

const tree = { 'a.txt': 'one\ntwo\n', 'gone.txt': 'bye\n', 'same.txt': 'same\n' };

describe('the hot path on the host connection', () => {
  it('records the same rows, blobs and manifest as through the query builder', async () => {
    const direct = await openStore(testdir({}));
    onTestFinished(() => direct.db.destroy());
    const portable = await queryBuilderStore(testdir({}));
    const manifests = [await aTurn(direct.store, testdir(tree)), await aTurn(portable.store, testdir(tree))];
    expect(manifests[0]).toEqual(manifests[1]);
    expect(manifests[0]!.files.map((file) => file.path)).toEqual(['a.txt', 'gone.txt', 'new.txt']);
    const contents = await Promise.all(
      [direct.db, portable.db].map(async (db) => ({
        changes: (await sql`select * from checkpoint_file_change order by path`.execute(db)).rows,
        blobs: (await sql`select sha256, bytes from checkpoint_blob order by sha256`.execute(db)).rows,
        points: (
          await sql`select session_id, turn_id, sequence, message_count, bytes, completed_at is not null as done
            from checkpoint_restore_point`.execute(db)
        ).rows,
      })),
    );
    expect(contents[0]).toEqual(contents[1]);
  });

  it('waits for a transaction the host holds open on the connection instead of joining it', async () => {
    const root = testdir({});
    const { db, store } = await openStore(testdir({}));
    onTestFinished(() => db.destroy());
    const turn = await beginTurn(store, root, 't1');
    let recording: Promise<void> | undefined;
    await expect(
      db.transaction().execute(async (transaction) => {
        await sql`insert into checkpoint_blob (sha256, content, bytes, created_at) values ('host', x'00', 1, 0)`.execute(
          transaction,
        );
        recording = Promise.resolve(turn.recorder.beforeChange('a.txt', { state: 'absent' }));
        await delay(20);
        throw new Error('the host rolls back');
      }),
    ).rejects.toThrow('the host rolls back');
    await recording;
    const paths = await sql<{ path: string }>`select path from checkpoint_file_change`.execute(db);
    expect(paths.rows).toEqual([{ path: 'a.txt' }]);
    expect((await sql`select sha256 from checkpoint_blob where sha256 = 'host'`.execute(db)).rows).toEqual([]);
  });
});

describe('results', () => {
  it('are written before afterChange resolves: after a crash, a later edit by the person is a conflict, not overwritten', async () => {
    const root = testdir({ 'a.txt': 'original\n' });
    const home = testdir({});
    const { db, store, file } = await openStore(home);
    onTestFinished(() => db.destroy());
    const turn = await beginTurn(store, root, 't1');
    await toolWrite(turn.recorder, root, 'a.txt', 'agent\n');
    // The process dies here, before any other change or the turn's end; the person edits a.txt before anyone recovers the turn.
    writeFileSync(join(root, 'a.txt'), 'person\n');
    const other = await openStore(home);
    expect(other.file).toBe(file);
    onTestFinished(() => other.db.destroy());
    const manifest = await other.store.completeTurn('session-1', 't1');
    // The agent's hash was recorded (the disk no longer holds its bytes); settled from the disk it would say 7.
    expect(manifest.files.map((entry) => [entry.path, entry.bytesAfter])).toEqual([['a.txt', null]]);
    expect(await other.store.precheckUndo('session-1', 't1')).toMatchObject([
      { path: 'a.txt', reason: 'changed_on_disk' },
    ]);
    await expect(other.store.undoFiles('session-1', 't1')).rejects.toMatchObject({ code: 'checkpoint_conflict' });
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('person\n');
  });

  it('of a crashed turn are completed from what was written, and undo puts the file back', async () => {
    const root = testdir({ 'a.txt': 'original\n' });
    const home = testdir({});
    const { db, store } = await openStore(home);
    onTestFinished(() => db.destroy());
    const turn = await beginTurn(store, root, 't1');
    await toolWrite(turn.recorder, root, 'a.txt', 'agent\n');
    const other = await openStore(home);
    onTestFinished(() => other.db.destroy());
    const manifest = await other.store.completeTurn('session-1', 't1');
    expect(manifest.files).toMatchObject([{ path: 'a.txt', change: 'modified', bytesAfter: 6, linesAdded: 1 }]);
    await other.store.undoFiles('session-1', 't1');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('original\n');
  });
});
