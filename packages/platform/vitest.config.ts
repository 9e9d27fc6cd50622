import { defineConfig } from 'vitest/config';
import { packageTestConfig, sharedWorkerModules, withPostgres } from '../../vitest.shared.ts';

export default defineConfig(packageTestConfig({ test: { ...withPostgres.test, ...sharedWorkerModules.test } }));
