import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** How many prepared statements one database keeps (the store issues a few dozen distinct ones). */
const DEFAULT_CAPACITY = 256;

/**
 * `database` as Kysely's SQLite dialect sees it, with prepared statements kept by their SQL text.
 * Kysely's driver prepares every query anew; a tool call runs about thirty, and preparing them
 * was the largest single cost of a warm call. Reusing a statement is safe here because Kysely
 * runs one query at a time on its one connection (a streamed query holds it until it ends), and
 * SQLite re-prepares a statement by itself when the schema changed under it. The least recently
 * used statement is dropped beyond `capacity`, so SQL with varying shapes (IN lists) stays bounded.
 */
export function withStatementCache(database: SqliteDatabase, capacity = DEFAULT_CAPACITY): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    prepare(sql) {
      let statement = statements.get(sql);
      if (statement === undefined) {
        statement = database.prepare(sql);
        if (statements.size >= capacity) statements.delete(statements.keys().next().value as string);
      } else {
        statements.delete(sql);
      }
      statements.set(sql, statement);
      return statement;
    },
    close() {
      statements.clear();
      database.close();
    },
  };
}
