import { describeReadmeExample } from '@clawsmith/test-utils';

describeReadmeExample({
  testFolder: import.meta.dirname,
  example: 'examples/scripted-model.ts',
  prints: ["tool-calls Let me look. [ 'read_file' ]", 'stop Hi!'],
});
