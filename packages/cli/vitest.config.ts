import { defineConfig } from 'vitest/config';
import { packageTestConfig, sharedWorkerModules, withPostgres } from '../../vitest.shared.ts';

// The end-to-end tests spawn the built command several times each; on a loaded shared machine one
// spawn can take seconds, so 30 s per test is too tight (a time limit, not a speed assertion).
// A real PostgreSQL serves the tests of a home shared through --database-url. The files of a
// worker share its loaded modules (no test changes process-wide state): the harness and the
// sources the unit tests import load once per worker, not once per file.
export default defineConfig(
  packageTestConfig({
    ...withPostgres,
    test: { ...withPostgres.test, ...sharedWorkerModules.test, testTimeout: 120_000 },
  }),
);
