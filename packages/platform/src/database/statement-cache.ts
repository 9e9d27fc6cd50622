import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** How many prepared statements one database keeps (the store issues a few dozen distinct ones). */
const DEFAULT_CAPACITY = 256;

/**
 * `database` as Kysely's SQLite dialect sees it, with prepared statements kept by their SQL text.
 * Kysely's driver prepares every query anew, which costs more than running a turn's small
 * statements (a warm tool call in clawsmith's core runs about thirty); hosts that share their
 * database with the checkpoint store wrap it with this too. Reuse is safe because Kysely runs one query at a time on its
 * one connection, and SQLite re-prepares a statement by itself when the schema changed under it.
 * The least recently used statement is dropped beyond `capacity` (IN lists vary in shape).
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
