import { defineConfig } from 'vitest/config';
import { packageTestConfigOnBothEngines } from '../../vitest.shared.ts';

// The store-level tests run on both engines: on PostgreSQL every home a test opens (and every
// process it starts) lives in a database of its own (CLAWSMITH_DATABASE_URL).
export default defineConfig(
  packageTestConfigOnBothEngines(
    [
      'src/store/session-store.test.ts',
      'src/store/session-change-feed.test.ts',
      'src/store/worker-role.test.ts',
      'src/undone-turns.test.ts',
      'src/recovery.test.ts',
      'src/turn-claims/session-claim.test.ts',
      'src/turn-claims/claim-taken-over.test.ts',
    ],
    { databaseUrlPerTest: true, sharedWorkerModules: true },
  ),
);
