import { openSqliteDatabase } from '@clawsmith/platform';
import type { HostDatabase } from './checkpoint-schema.js';
import { migrateCheckpoints } from './checkpoint-migrations.js';
import type { SqliteHandle } from './sqlite-statements.js';

/** The connections of the databases {@link openCheckpointDatabase} opened, for the store's hot path. */
const handles = new WeakMap<object, SqliteHandle>();

/** The better-sqlite3 connection under `db` when {@link openCheckpointDatabase} opened it. */
export function sqliteHandleOf(db: object): SqliteHandle | undefined {
  return handles.get(db);
}

/**
 * Opens (creating if needed) a SQLite database at `file` for the checkpoint store alone (WAL,
 * `busy_timeout` 5 s unless `busyTimeoutMs` says otherwise, `synchronous=NORMAL`, prepared
 * statements reused, transactions that take the write lock when they begin) and runs the
 * checkpoint migrations. For tests, benchmarks and small hosts; the caller closes it with
 * `destroy()`. A host with tables of its own opens its database itself (`openSqliteDatabase` or
 * `openPostgresDatabase` of `@clawsmith/platform`; clawsmith's core waits 60 s and turns on
 * foreign keys) and runs {@link migrateCheckpoints} on it.
 */
export async function openCheckpointDatabase(
  file: string,
  options: { readonly busyTimeoutMs?: number } = {},
): Promise<HostDatabase> {
  const { db, sqlite } = openSqliteDatabase(file, {
    busyTimeoutMs: Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000)),
    foreignKeys: false,
  });
  try {
    await migrateCheckpoints(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  handles.set(db, sqlite);
  return db;
}
