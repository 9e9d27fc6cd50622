import { describeReadmeExample } from '@clawsmith/test-utils';

describeReadmeExample({
  testFolder: import.meta.dirname,
  example: 'examples/run-a-command.ts',
  prints: ['success made', 'error command_failed', 'refused: command_refused'],
});
