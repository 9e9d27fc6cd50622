import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { withStatementCache, type SqliteHandle } from '@clawsmith/checkpoints';
import { Kysely, SqliteDialect } from 'kysely';
import type { CoreDatabase } from './core-tables.js';

/**
 * Opens (creating if needed) the embedded SQLite database of a clawsmith home: WAL so that the
 * CLI and the web server can read while the other writes, a busy timeout so that concurrent
 * writers wait instead of failing, and `synchronous=NORMAL`, which is durable under WAL. Prepared
 * statements are reused ({@link withStatementCache}).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function openClawsmithDatabase(file: string): Kysely<any> {
  return openClawsmithConnection(file).db;
}

/**
 * {@link openClawsmithDatabase} with the better-sqlite3 connection under it, which the checkpoint
 * store's hot path runs on (`sqlite` of `createCheckpointStore`).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function openClawsmithConnection(file: string): { db: Kysely<any>; sqlite: SqliteHandle } {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const database = new Database(file);
  database.pragma('busy_timeout = 10000');
  switchToWriteAheadLog(database);
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  return {
    db: new Kysely({ dialect: new SqliteDialect({ database: withStatementCache(database) }) }),
    sqlite: database,
  };
}

/**
 * Puts the database in WAL mode. When two processes open one new file at the same moment, one
 * can find it locked while the other switches it, and SQLite answers that with SQLITE_BUSY at
 * once instead of waiting out busy_timeout; so this tries again for up to a second.
 */
function switchToWriteAheadLog(database: Database.Database): void {
  for (let attempt = 1; ; attempt++) {
    try {
      database.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || attempt === 100) throw error;
      Atomics.wait(PAUSE, 0, 0, 10);
    }
  }
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * The home database as core's code sees it: the same connection, typed by core's own tables.
 * The home is shared by every package's tables, so the host holds it untyped; each package
 * types only the tables it owns (as checkpoints does with `CheckpointTables`).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function coreDatabase(db: Kysely<any>): CoreDatabase {
  return db as CoreDatabase;
}
