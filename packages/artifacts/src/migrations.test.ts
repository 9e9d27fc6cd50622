import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testdir } from '@clawsmith/test-utils';
import { migrateArtifacts } from './migrations.js';

async function tableNames(db: Kysely<unknown>): Promise<string[]> {
  const result = await sql<{ name: string }>`select name from sqlite_master where type = 'table' order by name`.execute(
    db,
  );
  return result.rows.map((row) => row.name);
}

describe('migrateArtifacts', () => {
  it('creates only artifact_ tables and its own migration tables, and is idempotent', async () => {
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(join(testdir(), 'a.db')) }) });
    try {
      await migrateArtifacts(db);
      await migrateArtifacts(db);
      expect(await tableNames(db)).toEqual([
        'artifact_line_marks',
        'artifact_records',
        'artifact_shares',
        'clawsmith_artifacts_migration',
        'clawsmith_artifacts_migration_lock',
      ]);
    } finally {
      await db.destroy();
    }
  });

  it('shares a database with another package that migrates with its own tables', async () => {
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(join(testdir(), 'b.db')) }) });
    try {
      const other = new Migrator({
        db,
        provider: {
          getMigrations: async () => ({
            '0001_other': {
              up: async (database: Kysely<unknown>) =>
                void (await database.schema.createTable('other_things').addColumn('id', 'text').execute()),
            },
          }),
        },
        migrationTableName: 'other_migration',
        migrationLockTableName: 'other_migration_lock',
      });
      expect((await other.migrateToLatest()).error).toBeUndefined();
      await migrateArtifacts(db);
      expect((await other.migrateToLatest()).error).toBeUndefined();
      expect(await tableNames(db)).toEqual(
        expect.arrayContaining([
          'artifact_records',
          'other_things',
          'other_migration',
          'clawsmith_artifacts_migration',
        ]),
      );
    } finally {
      await db.destroy();
    }
  });
});
