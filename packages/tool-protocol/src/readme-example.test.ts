// The contract package depends on no workspace package; this repository-only test helper is the exception.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { describeReadmeExample } from '@clawsmith/test-utils';

describeReadmeExample({
  testFolder: import.meta.dirname,
  example: 'examples/define-a-tool.ts',
  prints: ['workspace-write', 'Created notes.txt'],
});
