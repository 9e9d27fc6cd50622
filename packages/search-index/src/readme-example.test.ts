import { describeReadmeExample } from '@clawsmith/test-utils';

describeReadmeExample({
  testFolder: import.meta.dirname,
  example: 'examples/find-candidates.ts',
  prints: ["[ 'src/session.ts' ] of 3", "[ 'README.md', 'src/answer.ts' ]"],
  // The index is built in a worker thread started from its module file, which a bundle would leave behind.
  start: 'tsx',
});
