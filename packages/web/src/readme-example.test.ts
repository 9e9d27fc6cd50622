import { describeReadmeExample } from '@clawsmith/test-utils';

describeReadmeExample({
  testFolder: import.meta.dirname,
  example: 'examples/answer-approvals.ts',
  prints: ['sign-in URL ready', 'asked: write_file', 'turn completed; notes.md: hello'],
});
