import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  CompiledQuery,
  Kysely,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';
import type { DatabaseHandle, SharedTables } from './database-handle.js';
import { withStatementCache } from './statement-cache.js';

/**
 * How long a connection waits for another process's write (or an opening's migrations) before
 * it gives up with SQLITE_BUSY. It must outlast the longest transaction any clawsmith process
 * holds, under load: a checkpoint batch of 32 MiB of pre-images, migrations of every package,
 * with two dozen processes queueing on two cores (measured: 10 s was not enough for 24 runs).
 */
export const SQLITE_BUSY_TIMEOUT_MS = 60_000;

/** How {@link openSqliteDatabase} opens a file. */
export interface SqliteDatabaseOptions {
  /** How long to wait for another process's lock; default {@link SQLITE_BUSY_TIMEOUT_MS}. */
  readonly busyTimeoutMs?: number;
  /** Whether SQLite enforces foreign keys (`PRAGMA foreign_keys`); default true. */
  readonly foreignKeys?: boolean;
}

/** A SQLite database opened by {@link openSqliteDatabase}. */
export interface SqliteDatabase {
  /** The engine: SQLite. */
  readonly engine: 'sqlite';
  /** The Kysely database, shared by every package's tables (each types only its own). */
  readonly db: DatabaseHandle;
  /** The better-sqlite3 connection under `db`, for synchronous fast paths (prepared statements). */
  readonly sqlite: Database.Database;
  /** Closes the database. */
  close(): Promise<void>;
}

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
 * Opens (creating it and its folder if needed) a SQLite database: WAL so that readers and one
 * writer of several processes go on together, a busy timeout so that concurrent writers wait
 * instead of failing, transactions that take the write lock when they begin, `synchronous=NORMAL`
 * (durable under WAL), and prepared statements reused ({@link withStatementCache}). `:memory:`
 * opens a private in-memory database.
 */
export function openSqliteDatabase(file: string, options: SqliteDatabaseOptions = {}): SqliteDatabase {
  const busyTimeoutMs = Math.max(0, Math.floor(options.busyTimeoutMs ?? SQLITE_BUSY_TIMEOUT_MS));
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const sqlite = new Database(file);
  try {
    sqlite.pragma(`busy_timeout = ${busyTimeoutMs}`);
    switchToWriteAheadLog(sqlite, busyTimeoutMs);
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma(`foreign_keys = ${options.foreignKeys === false ? 'OFF' : 'ON'}`);
  } catch (error) {
    sqlite.close();
    throw error;
  }
  const db = new Kysely<SharedTables>({
    dialect: new WriteLockingSqliteDialect({ database: withStatementCache(sqlite) }),
  });
  return { engine: 'sqlite', db, sqlite, close: () => db.destroy() };
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
