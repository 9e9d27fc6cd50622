import { defineConfig } from 'vitest/config';
import { packageTestConfigOnBothEngines } from '../../vitest.shared.ts';

// The store-level tests (those that open the store with openTestStore) run on both engines.
export default defineConfig(
  packageTestConfigOnBothEngines(
    [
      'src/appendable-artifact.test.ts',
      'src/artifact-store.test.ts',
      'src/externalize.test.ts',
      'src/keyword-search.test.ts',
      'src/range-reads.test.ts',
      'src/read-artifact-tool.test.ts',
      'src/retention.test.ts',
      'src/session-shares.test.ts',
    ],
    { sharedWorkerModules: true },
  ),
);
