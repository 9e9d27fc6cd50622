// The contract package depends on no workspace package; this repository-only test helper is the exception.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { describeReadmeExample } from '@clawsmith/test-utils';

describeReadmeExample({
  testFolder: import.meta.dirname,
  example: 'examples/read-run-output.ts',
  prints: ['#24 run_command started (execute)', '#25 run_command error command_failed exit 3'],
});
