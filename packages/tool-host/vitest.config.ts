import { defineConfig } from 'vitest/config';
import { packageTestConfigOnBothEngines } from '../../vitest.shared.ts';

// openToolHost's tests run on both engines: on the `postgres` project every test's host opens a
// database of its own on the run's server (CLAWSMITH_DATABASE_URL, set per test).
export default defineConfig(packageTestConfigOnBothEngines(['src/host/open-tool-host.test.ts']));
