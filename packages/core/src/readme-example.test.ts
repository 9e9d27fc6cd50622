import { describeReadmeExample } from '@clawsmith/test-utils';

describeReadmeExample({
  testFolder: import.meta.dirname,
  example: 'examples/agent-turn.ts',
  prints: [
    'completed Fixed the typo. Hello, world',
    'read_file success Read README.md',
    'edit_file success Edited README.md',
    'after undo: Helo, world',
  ],
});
