import { describeReadmeExample } from '@clawsmith/test-utils';

describeReadmeExample({
  testFolder: import.meta.dirname,
  example: 'examples/own-tracer-provider.ts',
  prints: [
    'chat claude-sonnet-4-5 chat ok',
    'execute_tool run_command execute_tool error',
    'invoke_agent clawsmith invoke_agent ok',
    'TRACEPARENT 00-',
  ],
});
