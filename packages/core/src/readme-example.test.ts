import { describeReadmeExample } from '@clawsmith/test-utils';

describeReadmeExample({
  testFolder: import.meta.dirname,
  example: 'examples/agent-turn.ts',
  prints: ['completed Fixed the typo. Hello, world', 'after undo: Helo, world'],
});
