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

const testFiles = ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts'];
const resolution = { resolve: { conditions: sourceConditions }, ssr: { resolve: { conditions: sourceConditions } } };
const timeouts = { testTimeout: 30_000, hookTimeout: 30_000, pool: 'forks' } as const;

/**
 * Overrides for a package whose test files may share one worker's loaded modules (`isolate:
 * false`): each forked worker runs its files one after another (on 2 cores vitest starts one) and
 * keeps what it has imported from one file to the next, where by default every file re-imports
 * the whole source graph in a fresh process (about half of tool-host's test time). Each file still
 * runs its own hooks and setup files; opt in once the package's tests restore whatever
 * process-wide state they change (environment variables, fake timers) and pass this way.
 */
export const sharedWorkerModules = { test: { isolate: false } } as const satisfies UserConfig;
const report = { reporters: ['default', 'json'], outputFile: { json: 'test-results/vitest.json' } };
const postgresGlobalSetup = join(import.meta.dirname, 'tools/test-utils/src/postgres/global-setup.ts');
const databaseUrlPerTest = join(import.meta.dirname, 'tools/test-utils/src/postgres/database-url-per-test.ts');

export function packageTestConfig(overrides: UserConfig = {}): UserConfig {
  const base = defineConfig({ ...resolution, test: { include: testFiles, ...report, ...timeouts } });
  return mergeConfig(base, overrides);
}

/**
 * For packages whose tests run on both database engines: one real PostgreSQL server for the
 * whole run (tools/test-utils/src/postgres), its URL given to test files as inject('postgresUrl').
 */
export const withPostgres: UserConfig = {
  test: { globalSetup: [postgresGlobalSetup] },
};

/**
 * For packages whose stores run on both database engines: every test on SQLite (project
 * `sqlite`), and the store-level files matching `postgresFiles` once more on a real PostgreSQL
 * (project `postgres`, one server for the run). Tests open their database with
 * `testDatabaseLocation` of `@clawsmith/test-utils/postgres`, which reads the project's engine;
 * with `databaseUrlPerTest`, each test on PostgreSQL also gets CLAWSMITH_DATABASE_URL naming a
 * new database of its own, which every home it opens (`openClawsmithHome`) and every process it
 * starts uses. `moreFiles` adds files (beyond src/ and test/) to the `sqlite` project. With
 * `sharedWorkerModules`, both projects run as {@link sharedWorkerModules} says. `globalSetup`
 * adds run-wide set-up files (e.g. one browser for the run) to both projects.
 */
export function packageTestConfigOnBothEngines(
  postgresFiles: readonly string[],
  options: {
    readonly databaseUrlPerTest?: boolean;
    readonly moreFiles?: readonly string[];
    readonly sharedWorkerModules?: boolean;
    readonly globalSetup?: readonly string[];
  } = {},
): UserConfig {
  const isolation = options.sharedWorkerModules ? sharedWorkerModules.test : {};
  return defineConfig({
    test: {
      ...report,
      projects: [
        {
          ...resolution,
          test: {
            name: 'sqlite',
            include: [...testFiles, ...(options.moreFiles ?? [])],
            ...timeouts,
            ...isolation,
            provide: { databaseEngine: 'sqlite' },
            globalSetup: [...(options.globalSetup ?? [])],
          },
        },
        {
          ...resolution,
          test: {
            name: 'postgres',
            include: [...postgresFiles],
            ...timeouts,
            ...isolation,
            provide: { databaseEngine: 'postgres' },
            globalSetup: [postgresGlobalSetup, ...(options.globalSetup ?? [])],
            setupFiles: options.databaseUrlPerTest ? [databaseUrlPerTest] : [],
          },
        },
      ],
    },
  });
}
