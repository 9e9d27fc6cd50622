// The PostgreSQL server helpers without vitest, for benchmarks and scripts.
export { startPostgresServer, type PostgresServer } from './postgres-server.js';
export { createTestDatabase } from './test-database.js';
