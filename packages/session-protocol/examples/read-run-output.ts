import { readSessionEvent } from '@clawsmith/session-protocol';

// Two lines of `clawsmith run --json` output (one persisted event per line).
const output = [
  '{"toolCallId":"c5","toolName":"run_command","summary":"run_command: node t.mjs","risk":"execute","capabilities":["process.spawn"],"sideEffect":true,"type":"tool.started","sessionId":"s1","turnId":"t1","sequence":24,"createdAt":"2026-12-06T06:45:01.000Z"}',
  '{"toolCallId":"c5","toolName":"run_command","result":{"version":1,"status":"error","code":"command_failed","retryable":false,"exitCode":3,"durationMs":41},"status":"error","output":"fail","type":"tool.completed","sessionId":"s1","turnId":"t1","sequence":25,"createdAt":"2026-12-06T06:45:01.050Z"}',
];

for (const line of output) {
  const event = readSessionEvent(JSON.parse(line));
  switch (event.type) {
    case 'tool.started':
      console.log(`#${event.sequence} ${event.toolName} started (${event.risk})`);
      break;
    case 'tool.completed':
      console.log(
        `#${event.sequence} ${event.toolName} ${event.result.status} ${event.result.code} exit ${event.result.exitCode}`,
      );
      break;
    case 'event.unrecognized':
      console.log(`#${event.sequence} unreadable ${event.recordedType}: ${event.problem}`);
      break;
  }
}
// #24 run_command started (execute)
// #25 run_command error command_failed exit 3
