import { defineConfig } from 'vitest/config';
import { packageTestConfigOnBothEngines } from '../../vitest.shared.ts';

// The store-level tests (those that open the store with openStore) run on both engines.
export default defineConfig(
  packageTestConfigOnBothEngines(
    [
      'src/command-changes.test.ts',
      'src/crash-recovery.test.ts',
      'src/file-diff.test.ts',
      'src/fork-and-retention.test.ts',
      'src/journal-validation.test.ts',
      'src/large-bodies.test.ts',
      'src/turn-checkpoint.test.ts',
      'src/undo-files.test.ts',
      'src/undo-late-changes.test.ts',
    ],
    { sharedWorkerModules: true },
  ),
);
