import { defineConfig } from 'vitest/config';
import { packageTestConfig } from '../../vitest.shared.ts';

// The end-to-end tests spawn the built command several times each; on a loaded shared machine one
// spawn can take seconds, so 30 s per test is too tight (a time limit, not a speed assertion).
export default defineConfig(packageTestConfig({ test: { testTimeout: 120_000 } }));
