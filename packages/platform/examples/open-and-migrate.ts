import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateUnderLock, openDatabase, redactDatabaseUrl } from '@clawsmith/platform';
import { Migrator, type Kysely, type Migration } from 'kysely';

// A PostgreSQL home when CLAWSMITH_DATABASE_URL is set, else a SQLite file in a new folder.
const url = process.env.CLAWSMITH_DATABASE_URL;
const folder = mkdtempSync(join(tmpdir(), 'platform-example-'));
const opened = await openDatabase(url ? { url } : { file: join(folder, 'clawsmith.db') });

const migrations: Record<string, Migration> = {
  '0001_notes': {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    up: async (db: Kysely<any>) => {
      await db.schema
        .createTable('note')
        .ifNotExists()
        .addColumn('id', 'bigint', (column) => column.primaryKey())
        .addColumn('text', 'text', (column) => column.notNull())
        .execute();
    },
  },
};
const migrator = new Migrator({
  db: opened.db,
  provider: { getMigrations: async () => migrations },
  migrationTableName: 'example_migration',
  migrationLockTableName: 'example_migration_lock',
});
await migrateUnderLock(opened.db, migrator);

await opened.db.insertInto('note').values({ id: Date.now(), text: 'hello' }).execute();
const notes = await opened.db.selectFrom('note').select(['id', 'text']).execute();
console.log(`${opened.engine}: ${notes.length} note(s), id is a ${typeof notes[0]?.id}`);
if (url) console.log(`database: ${redactDatabaseUrl(url)}`);
await opened.close();
rmSync(folder, { recursive: true, force: true });
