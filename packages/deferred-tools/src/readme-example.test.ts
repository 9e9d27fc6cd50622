import { describeReadmeExample } from '@clawsmith/test-utils';

describeReadmeExample({
  testFolder: import.meta.dirname,
  example: 'examples/search-and-activate.ts',
  prints: ['inactive_tool', "[ 'search_tools', 'github_create_issue' ]"],
});
