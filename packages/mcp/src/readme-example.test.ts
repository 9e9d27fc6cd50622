import { describeReadmeExample } from '@clawsmith/test-utils';

describeReadmeExample({
  testFolder: import.meta.dirname,
  example: 'examples/call-an-mcp-tool.ts',
  prints: [
    'mcp__everything__echo execute true',
    'valid without message: false',
    'success Echo: hello',
    'refused: unauthorized',
  ],
});
