import type { SqliteHandle } from '@clawsmith/checkpoints';
import { openSqliteDatabase, type DatabaseHandle } from '@clawsmith/platform';
import { HOME_BUSY_TIMEOUT_MS } from '@clawsmith/tool-host';
import type { CoreDatabase } from './core-tables.js';

// The tool host opens the same home: both wait the same (see the constant's doc).
export { HOME_BUSY_TIMEOUT_MS };

/**
 * Opens (creating if needed) the embedded SQLite database of a clawsmith home with
 * `openSqliteDatabase` of `@clawsmith/platform`: WAL, a busy timeout ({@link HOME_BUSY_TIMEOUT_MS}),
 * transactions that take the write lock when they begin, `synchronous=NORMAL`, foreign keys on and
 * prepared statements reused.
 */
export function openClawsmithDatabase(file: string): DatabaseHandle {
  return openClawsmithConnection(file).db;
}

/**
 * {@link openClawsmithDatabase} with the better-sqlite3 connection under it, which the checkpoint
 * store's hot path runs on (`sqlite` of `createCheckpointStore`). `busyTimeoutMs` replaces
 * {@link HOME_BUSY_TIMEOUT_MS} (tests of a locked home need not wait a minute).
 */
export function openClawsmithConnection(
  file: string,
  busyTimeoutMs: number = HOME_BUSY_TIMEOUT_MS,
): { db: DatabaseHandle; sqlite: SqliteHandle } {
  const { db, sqlite } = openSqliteDatabase(file, { busyTimeoutMs });
  return { db, sqlite };
}

/**
 * The home database as core's code sees it: the same connection, typed by core's own tables.
 * The home is shared by every package's tables, so the host holds it with an open table map
 * (`DatabaseHandle`); each package types only the tables it owns (as checkpoints does with
 * `CheckpointTables`), which its own migrations created.
 */
export function coreDatabase(db: DatabaseHandle): CoreDatabase {
  return db as unknown as CoreDatabase;
}
