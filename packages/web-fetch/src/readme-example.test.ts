import { describeReadmeExample } from '@clawsmith/test-utils';

describeReadmeExample({
  testFolder: import.meta.dirname,
  example: 'examples/fetch-a-page.ts',
  prints: ['success Owls hunt by **sound**.', 'refused: address_refused'],
});
