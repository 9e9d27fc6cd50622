// The PostgreSQL helpers of @clawsmith/test-utils: a real server per test run, a database per test.
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
