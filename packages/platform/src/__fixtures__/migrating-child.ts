// A process that opens a database (argv[2]: a SQLite file or a postgres:// URL), says `ready`,
// waits for `go` on stdin, runs the fixture migrations under the lock and says `migrated`.
import { createInterface } from 'node:readline';
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { migrateUnderLock, openDatabase } from '../index.js';

const location = process.argv[2] as string;
const opened = await openDatabase(location.startsWith('postgres') ? { url: location } : { file: location });
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

// The first migration creates a table without `if not exists` and records which process ran
// it: run twice, it fails; run once, the table holds one row. The second one is slow enough for
// the others to arrive while it runs.
const migrations: Record<string, Migration> = {
  '0001_once': {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('migrated_by')
        .addColumn('pid', 'integer', (column) => column.notNull())
        .execute();
      await db.insertInto('migrated_by').values({ pid: process.pid }).execute();
    },
  },
  '0002_second': {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema.createTable('second_table').addColumn('id', 'integer').execute();
      for (let row = 0; row < 200; row++) await sql`insert into second_table (id) values (${row})`.execute(db);
    },
  },
};

console.log('ready');
await lines.next();
await migrateUnderLock(
  opened.db,
  new Migrator({
    db: opened.db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'fixture_migration',
    migrationLockTableName: 'fixture_migration_lock',
  }),
);
console.log('migrated');
await opened.close();
