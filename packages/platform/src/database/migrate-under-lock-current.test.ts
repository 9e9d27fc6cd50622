import { join } from 'node:path';
import Database from 'better-sqlite3';
import { testdir } from '@clawsmith/test-utils';
import { Migrator, type Kysely, type Migration } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateUnderLock } from './migrate-under-lock.js';
import { openSqliteDatabase } from './sqlite-database.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDatabase = Kysely<any>;

function notesMigration(table: string): Migration {
  return {
    async up(db: AnyDatabase) {
      await db.schema.createTable(table).addColumn('id', 'integer').execute();
    },
  };
}

function migrate(db: AnyDatabase, migrations: Record<string, Migration>): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'notes_migration',
    migrationLockTableName: 'notes_migration_lock',
  });
  return migrateUnderLock(db, migrator, {
    migrationTableName: 'notes_migration',
    migrationNames: Object.keys(migrations),
  });
}

/** Another process's connection holding SQLite's write lock until `release()`. */
function holdWriteLock(file: string): { release(): void } {
  const other = new Database(file);
  other.exec('begin immediate');
  return {
    release() {
      other.exec('rollback');
      other.close();
    },
  };
}

describe('migrateUnderLock with the applied migrations', () => {
  it('leaves a current database alone without waiting for the write lock', async () => {
    const file = join(testdir({}), 'home.db');
    const first = openSqliteDatabase(file);
    await migrate(first.db, { '0001_notes': notesMigration('notes') });
    await first.close();

    const writer = holdWriteLock(file);
    const again = openSqliteDatabase(file, { busyTimeoutMs: 0 });
    try {
      // Without the check this takes the write lock and fails at once with SQLITE_BUSY.
      await expect(migrate(again.db, { '0001_notes': notesMigration('notes') })).resolves.toBeUndefined();
    } finally {
      writer.release();
      await again.close();
    }
  });

  it('still applies a migration that is new, under the lock', async () => {
    const file = join(testdir({}), 'home.db');
    const opened = openSqliteDatabase(file, { busyTimeoutMs: 0 });
    try {
      await migrate(opened.db, { '0001_notes': notesMigration('notes') });
      const migrations = { '0001_notes': notesMigration('notes'), '0002_tags': notesMigration('tags') };

      const writer = holdWriteLock(file);
      await expect(migrate(opened.db, migrations)).rejects.toThrow(/locked|busy/i);
      writer.release();

      await migrate(opened.db, migrations);
      const applied = await opened.db.selectFrom('notes_migration').select('name').orderBy('name').execute();
      expect(applied.map((row) => row.name)).toEqual(['0001_notes', '0002_tags']);
      await expect(opened.db.selectFrom('tags').selectAll().execute()).resolves.toEqual([]);
    } finally {
      await opened.close();
    }
  });

  it('reports a migration this version does not know, as the migrator does', async () => {
    const file = join(testdir({}), 'home.db');
    const opened = openSqliteDatabase(file);
    try {
      await migrate(opened.db, { '0001_notes': notesMigration('notes'), '0002_tags': notesMigration('tags') });
      await expect(migrate(opened.db, { '0001_notes': notesMigration('notes') })).rejects.toThrow(/0002_tags/);
    } finally {
      await opened.close();
    }
  });
});
