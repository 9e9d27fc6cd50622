import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, SqliteDialect } from 'kysely';

/**
 * Opens (creating if needed) the embedded SQLite database of a clawsmith home: WAL so that the
 * CLI and the web server can read while the other writes, a busy timeout so that concurrent
 * writers wait instead of failing, and `synchronous=NORMAL`, which is durable under WAL.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function openClawsmithDatabase(file: string): Kysely<any> {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const database = new Database(file);
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 10000');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  return new Kysely({ dialect: new SqliteDialect({ database }) });
}
