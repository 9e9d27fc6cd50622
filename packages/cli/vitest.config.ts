import { defineConfig } from 'vitest/config';
import { packageTestConfig, withPostgres } from '../../vitest.shared.ts';

// The end-to-end tests spawn the built command several times each; on a loaded shared machine one
// spawn can take seconds, so 30 s per test is too tight (a time limit, not a speed assertion).
// A real PostgreSQL serves the tests of a home shared through --database-url.
export default defineConfig(
  packageTestConfig({ ...withPostgres, test: { ...withPostgres.test, testTimeout: 120_000 } }),
);
