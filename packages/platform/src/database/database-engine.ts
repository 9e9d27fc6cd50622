import { PostgresAdapter, SqliteAdapter, type Kysely } from 'kysely';

/** The two engines a clawsmith home runs on: embedded SQLite (the default) or a PostgreSQL server. */
export type DatabaseEngine = 'sqlite' | 'postgres';

/**
 * Which engine `db` talks to, read from its Kysely adapter; undefined for any other dialect
 * (a host's own), which this package opens nothing for and locks in Kysely's own way.
 */
export function databaseEngineOf<Tables>(db: Kysely<Tables>): DatabaseEngine | undefined {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof SqliteAdapter) return 'sqlite';
  if (adapter instanceof PostgresAdapter) return 'postgres';
  return undefined;
}
