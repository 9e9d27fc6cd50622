import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { Migrator } from 'kysely';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CHECKPOINT_MIGRATION_TABLES, checkpointMigrations } from './index.js';
import { beginTurn, openStore, toolDelete, toolWrite } from './__fixtures__/tool-simulator.js';

async function setup(tree: Record<string, string>) {
  const root = testdir(tree);
  const opened = await openStore(testdir({}));
  onTestFinished(() => opened.db.destroy());
  return { root, ...opened };
}

describe('beginTurn and the recorder', () => {
  it('takes a turn without session bookkeeping, stores 0, 0 and null, and undoes it like any other', async () => {
    const { root, store } = await setup({ 'a.txt': 'before\n' });
    const turn = await store.beginTurn({ sessionId: 's', turnId: 't1', workspaceRoot: root });
    await toolWrite(turn.recorder, root, 'a.txt', 'after\n');
    await turn.complete();
    const point = await store.getRestorePoint('s', 't1');
    expect({ messageCount: point.messageCount, eventSequence: point.eventSequence, todos: point.todoSnapshot }).toEqual(
      {
        messageCount: 0,
        eventSequence: 0,
        todos: null,
      },
    );
    await store.undoFiles('s', 't1');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('before\n');
  });

  it('keeps the first pre-image and the latest post-image, and completes with paths and numbers only', async () => {
    const { root, store } = await setup({ 'a.txt': 'one\ntwo\nthree\n', 'gone.txt': 'x\ny\n', 'bin.dat': '' });
    const turn = await store.beginTurn({
      sessionId: 's',
      turnId: 't1',
      workspaceRoot: root,
      messageCount: 12,
      eventSequence: 40,
      todoSnapshot: [{ text: 'write tests', done: false }],
    });
    expect(turn.restorePointId).toBe('s/t1');
    await toolWrite(turn.recorder, root, 'a.txt', 'one\nTWO\nthree\n');
    await toolWrite(turn.recorder, root, 'a.txt', 'one\nTWO\nthree\nfour\n');
    await toolWrite(turn.recorder, root, 'new.txt', 'hello\n');
    await toolDelete(turn.recorder, root, 'gone.txt');
    await toolWrite(turn.recorder, root, 'bin.dat', new Uint8Array([0, 1, 2, 3]));
    const manifest = await turn.complete();
    expect(manifest).toEqual({
      sessionId: 's',
      turnId: 't1',
      notes: [],
      files: [
        {
          path: 'a.txt',
          change: 'modified',
          entry: 'file',
          bytesBefore: 14,
          bytesAfter: 19,
          linesAdded: 2,
          linesRemoved: 1,
          binary: false,
          undoable: true,
        },
        {
          path: 'new.txt',
          change: 'created',
          entry: 'file',
          bytesBefore: null,
          bytesAfter: 6,
          linesAdded: 1,
          linesRemoved: 0,
          binary: false,
          undoable: true,
        },
        {
          path: 'gone.txt',
          change: 'deleted',
          entry: 'file',
          bytesBefore: 4,
          bytesAfter: null,
          linesAdded: 0,
          linesRemoved: 2,
          binary: false,
          undoable: true,
        },
        {
          path: 'bin.dat',
          change: 'modified',
          entry: 'file',
          bytesBefore: 0,
          bytesAfter: 4,
          linesAdded: null,
          linesRemoved: null,
          binary: true,
          undoable: true,
        },
      ],
      totals: { files: 4, linesAdded: 3, linesRemoved: 3, bytesBefore: 18, bytesAfter: 29 },
    });
    const point = await store.getRestorePoint('s', 't1');
    expect(point).toMatchObject({
      messageCount: 12,
      eventSequence: 40,
      todoSnapshot: [{ text: 'write tests', done: false }],
      undone: false,
      sequence: 1,
    });
    expect(point.manifest).toEqual(manifest);
    expect(await turn.complete()).toEqual(manifest);
  });

  it('refuses hostile paths, a result without a pre-image, recording after completion and a reused turn id', async () => {
    const { root, store } = await setup({ 'a.txt': 'a\n' });
    const turn = await beginTurn(store, root, 't1');
    for (const path of ['../escape.txt', '/etc/passwd', 'a/../../b', '', 'a//b', './a', 'a\\b', 'C:/x', 'nul\0byte']) {
      await expect(Promise.resolve(turn.recorder.beforeChange(path, { state: 'absent' })), path).rejects.toMatchObject({
        code: 'checkpoint_invalid_path',
      });
    }
    await expect(Promise.resolve(turn.recorder.afterChange('a.txt', { state: 'absent' }))).rejects.toMatchObject({
      code: 'checkpoint_missing_preimage',
    });
    await turn.recorder.beforeChange('a.txt', { state: 'file', content: Buffer.from('a\n'), mode: 0o644 });
    await expect(
      Promise.resolve(turn.recorder.afterChange('a.txt', { state: 'file', sha256: 'not-a-hash' })),
    ).rejects.toMatchObject({ code: 'checkpoint_invalid_path' });
    await turn.complete();
    await expect(Promise.resolve(turn.recorder.beforeChange('b.txt', { state: 'absent' }))).rejects.toMatchObject({
      code: 'checkpoint_turn_completed',
    });
    await expect(beginTurn(store, root, 't1')).rejects.toMatchObject({ code: 'checkpoint_turn_exists' });
    await expect(
      store.beginTurn({
        sessionId: 's',
        turnId: 't9',
        workspaceRoot: root,
        messageCount: -1,
        eventSequence: 0,
        todoSnapshot: null,
      }),
    ).rejects.toThrow(/messageCount/);
  });

  it('settles a path whose tool never reported a result from the disk, dropping it when nothing changed', async () => {
    const { root, store } = await setup({ 'same.txt': 'same\n', 'changed.txt': 'c0\n' });
    const turn = await beginTurn(store, root, 't1');
    await turn.recorder.beforeChange('same.txt', { state: 'file', content: Buffer.from('same\n'), mode: 0o644 });
    await turn.recorder.beforeChange('changed.txt', { state: 'file', content: Buffer.from('c0\n'), mode: 0o644 });
    writeFileSync(join(root, 'changed.txt'), 'c1\n');
    const manifest = await turn.complete();
    expect(manifest.files.map((file) => [file.path, file.change])).toEqual([['changed.txt', 'modified']]);
  });
});

describe('migrateCheckpoints', () => {
  it('keeps its own migration tables so other packages can migrate the same database', async () => {
    const { db } = await setup({});
    const other = new Migrator({
      db,
      provider: {
        getMigrations: async () => ({
          '0001': {
            up: async (database) =>
              void (await database.schema.createTable('other_table').addColumn('id', 'integer').execute()),
          },
        }),
      },
    });
    expect((await other.migrateToLatest()).error).toBeUndefined();
    const tables = (await db.introspection.getTables({ withInternalKyselyTables: true })).map((table) => table.name);
    expect(tables).toEqual(
      expect.arrayContaining([
        CHECKPOINT_MIGRATION_TABLES.migrationTableName,
        'kysely_migration',
        'other_table',
        'checkpoint_blob',
        'checkpoint_restore_point',
      ]),
    );
    const applied = await db.selectFrom(CHECKPOINT_MIGRATION_TABLES.migrationTableName).select('name').execute();
    expect(applied.map((row) => row.name)).toEqual(Object.keys(checkpointMigrations));
  });
});
