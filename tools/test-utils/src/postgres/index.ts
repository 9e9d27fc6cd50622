// The PostgreSQL helpers of @clawsmith/test-utils: a real server per test run, a database per test.
import { join } from 'node:path';
import { inject } from 'vitest';
import { createTestDatabase } from './test-database.js';
import './provided-context.js';

export { startPostgresServer, type PostgresServer } from './postgres-server.js';
export { createTestDatabase } from './test-database.js';

/**
 * A new, empty database on the run's PostgreSQL server (started by the package's vitest
 * globalSetup, see `withPostgres` in vitest.shared.ts), as a URL with its password.
 */
export function testDatabaseUrl(): Promise<string> {
  return createTestDatabase(inject('postgresUrl'));
}

/** The engine this test project runs on: `postgres` in a `postgres` project, else `sqlite`. */
export function testDatabaseEngine(): 'sqlite' | 'postgres' {
  return inject('databaseEngine') ?? 'sqlite';
}

/**
 * Where a test's new, empty home database is, on the project's engine ({@link testDatabaseEngine}):
 * the file `clawsmith.db` in `folder` on SQLite, a database of its own on the run's PostgreSQL
 * server otherwise. Open it with `openDatabase` of `@clawsmith/platform`.
 */
export async function testDatabaseLocation(folder: string): Promise<{ file: string } | { url: string }> {
  return testDatabaseEngine() === 'postgres'
    ? { url: await testDatabaseUrl() }
    : { file: join(folder, 'clawsmith.db') };
}
