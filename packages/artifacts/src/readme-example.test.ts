import { describeReadmeExample } from '@clawsmith/test-utils';

describeReadmeExample({
  testFolder: import.meta.dirname,
  example: 'examples/store-large-output.ts',
  prints: ['success 9000: line 9000'],
});
