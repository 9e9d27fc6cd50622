import { Kysely, PostgresDialect, sql } from 'kysely';
import type { DatabaseHandle, SharedTables } from './database-handle.js';
import type pg from 'pg';
import { DatabaseUnavailableError } from './database-unavailable-error.js';
import { redactDatabaseUrl } from './database-url.js';
import { rememberPostgresUrl } from './postgres-urls.js';

/** How {@link openPostgresDatabase} connects. */
export interface PostgresDatabaseOptions {
  /**
   * The most connections this process holds open at once; default 10, at least 2 (migrating
   * holds one for the lock while the migrations run on another).
   */
  readonly maxConnections?: number;
}

/** A PostgreSQL database opened by {@link openPostgresDatabase}. */
export interface PostgresDatabase {
  /** The Kysely database on a pool of connections, shared by every package's tables. */
  readonly db: DatabaseHandle;
  /** The engine: PostgreSQL. */
  readonly engine: 'postgres';
  /** The URL with its password replaced by `***`, for messages and logs. */
  readonly displayUrl: string;
  /** Closes every connection of the pool. */
  close(): Promise<void>;
}

const INT8_OID = 20;

/**
 * `bigint` columns (sizes, times in milliseconds, counts) read as numbers, as SQLite returns
 * them, so a store reads the same row on both engines; pg's default is a string. A value beyond
 * 2^53 would lose digits silently, so it throws instead.
 */
function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value))
    throw new RangeError(`The database returned the integer ${text}, beyond what JavaScript holds exactly.`);
  return value;
}

function typeParsers(types: typeof pg.types): pg.CustomTypesConfig {
  return {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === INT8_OID && format !== 'binary') return parseInt8;
      return types.getTypeParser(oid, format);
    },
  } as pg.CustomTypesConfig;
}

/**
 * Opens a pool of connections to the PostgreSQL database at `url`
 * (`postgres://user:password@host:port/database`, or `?host=/socket/folder` for a Unix socket)
 * and checks that it answers: a wrong URL, a refused connection or a wrong password is a
 * {@link DatabaseUnavailableError} at once, naming the URL without its password.
 */
export async function openPostgresDatabase(
  url: string,
  options: PostgresDatabaseOptions = {},
): Promise<PostgresDatabase> {
  const displayUrl = redactDatabaseUrl(url);
  // pg loads when a PostgreSQL home is opened, not on import: the SQLite default starts without it.
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: url,
    max: Math.max(2, options.maxConnections ?? 10),
    application_name: 'clawsmith',
    types: typeParsers(pg.types),
  });
  // An idle connection that the server drops (a restart, a timeout) emits 'error' on the pool;
  // unheard, it would end the process. The pool discards that connection and the next query
  // opens a new one, so there is nothing to do here.
  pool.on('error', () => {});
  const db = new Kysely<SharedTables>({ dialect: new PostgresDialect({ pool }) });
  try {
    await sql`select 1`.execute(db);
  } catch (error) {
    await db.destroy().catch(() => {});
    throw new DatabaseUnavailableError(displayUrl, error);
  }
  rememberPostgresUrl(db, url);
  return { engine: 'postgres', db, displayUrl, close: () => db.destroy() };
}
