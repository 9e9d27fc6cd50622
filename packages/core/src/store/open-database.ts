import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { withStatementCache, type SqliteHandle } from '@clawsmith/checkpoints';
import { HOME_BUSY_TIMEOUT_MS } from '@clawsmith/tool-host';
import {
  CompiledQuery,
  Kysely,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';
import type { CoreDatabase } from './core-tables.js';

// The tool host opens the same home: both wait the same (see the constant's doc).
export { HOME_BUSY_TIMEOUT_MS };

/**
 * Kysely's SQLite driver, except that a transaction takes the write lock when it begins
 * (`BEGIN IMMEDIATE`): a deferred transaction that reads and then writes fails at once with
 * SQLITE_BUSY when another process committed in between (the busy timeout does not apply to
 * that upgrade), which crashed concurrent runs mid-turn. Taking the lock first makes it wait.
 */
class WriteLockingSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class WriteLockingSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new WriteLockingSqliteDriver(this.#config);
  }
}

/**
 * Opens (creating if needed) the embedded SQLite database of a clawsmith home: WAL so that the
 * CLI and the web server can read while the other writes, a busy timeout so that concurrent
 * writers wait instead of failing ({@link HOME_BUSY_TIMEOUT_MS}), transactions that take the
 * write lock when they begin, and `synchronous=NORMAL`, which is durable under WAL. Prepared
 * statements are reused ({@link withStatementCache}).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function openClawsmithDatabase(file: string): Kysely<any> {
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
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): { db: Kysely<any>; sqlite: SqliteHandle } {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const database = new Database(file);
  database.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  switchToWriteAheadLog(database, busyTimeoutMs);
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  return {
    db: new Kysely({ dialect: new WriteLockingSqliteDialect({ database: withStatementCache(database) }) }),
    sqlite: database,
  };
}

/**
 * Puts the database in WAL mode. When two processes open one new file at the same moment, one
 * can find it locked while the other switches it, and SQLite answers that with SQLITE_BUSY at
 * once instead of waiting out busy_timeout; so this tries again, for as long as the busy timeout.
 */
function switchToWriteAheadLog(database: Database.Database, busyTimeoutMs: number): void {
  const deadline = Date.now() + busyTimeoutMs;
  for (;;) {
    try {
      database.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
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
