import { describeReadmeExample } from '@clawsmith/test-utils';

describeReadmeExample({
  testFolder: import.meta.dirname,
  example: 'examples/fix-a-test.ts',
  prints: [
    'approve? run_command',
    'export const add = (a, b) => a + b;',
    'export const add = (a, b) => a - b;',
    'add(2, 3) = 5',
  ],
});
