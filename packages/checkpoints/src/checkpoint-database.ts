import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { HostDatabase } from './checkpoint-schema.js';
import { migrateCheckpoints } from './checkpoint-migrations.js';
import { withStatementCache } from './statement-cache.js';
import type { SqliteHandle } from './turn-writes.js';

/** The connections of the databases {@link openCheckpointDatabase} opened, for the store's hot path. */
const handles = new WeakMap<object, SqliteHandle>();

/** The better-sqlite3 connection under `db` when {@link openCheckpointDatabase} opened it. */
export function sqliteHandleOf(db: HostDatabase): SqliteHandle | undefined {
  return handles.get(db);
}

/**
 * Opens (creating if needed) a SQLite database at `file` for the checkpoint store alone (WAL,
 * `busy_timeout` 5 s unless `busyTimeoutMs` says otherwise, `synchronous=NORMAL`, prepared
 * statements reused) and runs the checkpoint migrations. For tests, benchmarks and small hosts;
 * the caller closes it with `destroy()`. A host with tables of its own opens its database itself
 * (clawsmith's core waits 60 s and turns on foreign keys) and runs {@link migrateCheckpoints} on it.
 */
export async function openCheckpointDatabase(
  file: string,
  options: { readonly busyTimeoutMs?: number } = {},
): Promise<HostDatabase> {
  const database = new Database(file);
  database.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5_000))}`);
  switchToWriteAheadLog(database);
  database.pragma('synchronous = NORMAL');
  const db = new Kysely<Record<string, never>>({
    dialect: new SqliteDialect({ database: withStatementCache(database) }),
  });
  await migrateCheckpoints(db);
  handles.set(db, database);
  return db;
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
