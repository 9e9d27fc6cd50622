import { describeReadmeExample } from '@clawsmith/test-utils';

describeReadmeExample({
  testFolder: import.meta.dirname,
  example: 'examples/edit-a-file.ts',
  prints: ['success "hello there\\n"', 'refused: path_outside_workspace'],
});
