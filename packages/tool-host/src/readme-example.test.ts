import { describeReadmeExample } from '@clawsmith/test-utils';

describeReadmeExample({
  testFolder: import.meta.dirname,
  example: 'examples/host-calls.ts',
  prints: ["action: 'ask'", 'success denied permission_denied', 'owls hunt at night'],
});
