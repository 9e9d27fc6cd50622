import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { testDatabaseUrl } from '@clawsmith/test-utils/postgres';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { databaseEngineOf } from './database-engine.js';
import { DatabaseUnavailableError } from './database-unavailable-error.js';
import { openDatabase } from './open-database.js';

describe('openDatabase', () => {
  it('opens a SQLite file in WAL mode with foreign keys and its folder created', async () => {
    const file = join(testdir({}), 'nested/home/clawsmith.db');
    const opened = await openDatabase({ file });
    try {
      expect(opened.engine).toBe('sqlite');
      expect(databaseEngineOf(opened.db)).toBe('sqlite');
      if (opened.engine !== 'sqlite') throw new Error('expected SQLite');
      expect(opened.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(opened.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    } finally {
      await opened.close();
    }
  });

  it('opens PostgreSQL from a URL and reads bigint columns as numbers, as SQLite does', async () => {
    const opened = await openDatabase({ url: await testDatabaseUrl() });
    try {
      expect(opened.engine).toBe('postgres');
      expect(databaseEngineOf(opened.db)).toBe('postgres');
      await sql`create table sizes (bytes bigint not null)`.execute(opened.db);
      await sql`insert into sizes values (${104_857_600}), (${2 ** 40})`.execute(opened.db);
      const rows = await opened.db.selectFrom('sizes').select('bytes').orderBy('bytes').execute();
      expect(rows).toEqual([{ bytes: 104_857_600 }, { bytes: 2 ** 40 }]);
      const count = await opened.db
        .selectFrom('sizes')
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirstOrThrow();
      expect(count.count).toBe(2);
    } finally {
      await opened.close();
    }
  });

  it('refuses a wrong password with database_unavailable, never showing the password it was given', async () => {
    const url = new URL(await testDatabaseUrl());
    url.password = 'not-the-password-42';
    const failure = await openDatabase({ url: url.toString() }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DatabaseUnavailableError);
    const error = failure as DatabaseUnavailableError;
    expect(error.code).toBe('database_unavailable');
    expect(error.message).toContain(`${url.username}:***@127.0.0.1`);
    expect(error.message).toMatch(/password authentication failed/);
    expect(error.message).not.toContain('not-the-password-42');
  });

  it('says which schemes it accepts for any other URL', async () => {
    await expect(openDatabase({ url: 'mysql://root:pw@127.0.0.1/clawsmith' })).rejects.toThrow(
      /must start with postgres:\/\/ or postgresql:\/\//,
    );
  });
});
