import { isPostgresUrl } from './database-url.js';
import { openPostgresDatabase, type PostgresDatabase, type PostgresDatabaseOptions } from './postgres-database.js';
import { openSqliteDatabase, type SqliteDatabase, type SqliteDatabaseOptions } from './sqlite-database.js';

/** Where a database is: a SQLite file, or a PostgreSQL server's URL. */
export type DatabaseLocation = { readonly file: string } | { readonly url: string };

/** A database opened by {@link openDatabase}: which engine, the Kysely database, and how to close it. */
export type OpenedDatabase = SqliteDatabase | PostgresDatabase;

/**
 * Opens the database at `location` on its engine: a `file` on SQLite, a `postgres://` `url` on
 * PostgreSQL. Any other URL scheme is an error that names the accepted ones.
 */
export async function openDatabase(
  location: DatabaseLocation,
  options: SqliteDatabaseOptions & PostgresDatabaseOptions = {},
): Promise<OpenedDatabase> {
  if ('file' in location) return openSqliteDatabase(location.file, options);
  if (!isPostgresUrl(location.url))
    throw new TypeError(
      'A database URL must start with postgres:// or postgresql:// (for SQLite, give a file instead of a URL).',
    );
  return openPostgresDatabase(location.url, options);
}
