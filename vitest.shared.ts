// The one vitest base every package extends: in-repo source resolution and a JSON report that
// tools/test-runner counts for the closing `N passed, N failed` line.
import { defaultServerConditions, mergeConfig, type UserConfig } from 'vite';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// Vitest hands these conditions to Node itself. The bundler-only `module` condition points some
// packages (OpenTelemetry's API, which the Anthropic SDK loads) at ES builds with extensionless
// imports that Node cannot load, so tests resolve as Node does.
const sourceConditions = [
  '@clawsmith/source',
  ...defaultServerConditions.filter((condition) => condition !== 'module'),
];

export function packageTestConfig(overrides: UserConfig = {}): UserConfig {
  const base = defineConfig({
    resolve: { conditions: sourceConditions },
    ssr: { resolve: { conditions: sourceConditions } },
    test: {
      include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts'],
      reporters: ['default', 'json'],
      outputFile: { json: 'test-results/vitest.json' },
      testTimeout: 30_000,
      hookTimeout: 30_000,
      pool: 'forks',
    },
  });
  return mergeConfig(base, overrides);
}

/**
 * For packages whose tests run on both database engines: one real PostgreSQL server for the
 * whole run (tools/test-utils/src/postgres), its URL given to test files as inject('postgresUrl').
 */
export const withPostgres: UserConfig = {
  test: { globalSetup: [join(import.meta.dirname, 'tools/test-utils/src/postgres/global-setup.ts')] },
};
