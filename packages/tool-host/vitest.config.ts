import { defineConfig } from 'vitest/config';
import { packageTestConfigOnBothEngines } from '../../vitest.shared.ts';

// openToolHost's tests run on both engines: on the `postgres` project every test's host opens a
// database of its own on the run's server (testDatabaseUrl of test-utils).
export default defineConfig(
  packageTestConfigOnBothEngines(['src/host/open-tool-host.test.ts'], { sharedWorkerModules: true }),
);
