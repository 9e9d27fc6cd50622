import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { HostDatabase } from './checkpoint-schema.js';
import { migrateCheckpoints } from './checkpoint-migrations.js';

/**
 * Opens (creating if needed) a SQLite database at `file` the way the host does (WAL,
 * `busy_timeout` 5 s, `synchronous=NORMAL`) and runs the checkpoint migrations. For tests,
 * benchmarks and small hosts; the caller closes it with `destroy()`.
 */
export async function openCheckpointDatabase(file: string): Promise<HostDatabase> {
  const database = new Database(file);
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  const db = new Kysely<Record<string, never>>({ dialect: new SqliteDialect({ database }) });
  await migrateCheckpoints(db);
  return db;
}
