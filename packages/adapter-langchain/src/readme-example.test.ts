import { describeReadmeExample } from '@clawsmith/test-utils';

describeReadmeExample({
  testFolder: import.meta.dirname,
  example: 'examples/fix-a-test.ts',
  prints: [
    'approve? run_command - mode accept-edits: execute needs approval',
    'Fixed: add(2, 3) is 5. export const add = (a, b) => a + b;',
    'export const add = (a, b) => a - b;',
    'add(2, 3) = 5',
  ],
});
