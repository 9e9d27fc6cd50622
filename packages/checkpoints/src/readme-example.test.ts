import { describeReadmeExample } from '@clawsmith/test-utils';

describeReadmeExample({
  testFolder: import.meta.dirname,
  example: 'examples/undo-a-turn.ts',
  prints: ["[ 'modified notes.txt' ]", 'first draft'],
});
