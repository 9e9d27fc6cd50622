import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { SessionEvent } from '@clawsmith/session-protocol';
import { createTelemetry } from '@clawsmith/telemetry';

// Your own tracer provider: spans go there, and no exporter of this package is created.
const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const telemetry = await createTelemetry({ tracerProvider, model: { name: 'anthropic', model: 'claude-sonnet-4-5' } });

// In a program, core hands every event over as it persists it:
//   createAgentCore({ ..., traceContext: telemetry.traceContextOf }); core.subscribe(telemetry.record);
// Here, the events of a turn with one model request and one failing command, as core writes them.
const envelope = (sequence: number) => ({
  sessionId: 'session-1',
  turnId: 'turn-1',
  sequence,
  createdAt: new Date().toISOString(),
});
const opening: SessionEvent[] = [
  { ...envelope(1), type: 'turn.started', prompt: 'run the tests', restorePointId: 'point-1' },
  { ...envelope(2), type: 'request.started', requestId: 'request-1', step: 1 },
  {
    ...envelope(3),
    type: 'request.completed',
    requestId: 'request-1',
    finishReason: 'tool-calls',
    toolCallCount: 1,
    usage: { inputTokens: 900, outputTokens: 30 },
  },
  { ...envelope(4), type: 'assistant.message', text: '', toolCalls: [{ id: 'call-1', name: 'run_command' }] },
  {
    ...envelope(5),
    type: 'tool.started',
    toolCallId: 'call-1',
    toolName: 'run_command',
    summary: 'npm test',
    risk: 'execute',
    capabilities: ['process.execute'],
    sideEffect: true,
  },
];
for (const event of opening) telemetry.record(event);

// While the call runs, its command gets this as TRACEPARENT.
const running = telemetry.traceContextOf({ sessionId: 'session-1', turnId: 'turn-1', toolCallId: 'call-1' });
console.log('TRACEPARENT', running?.traceparent);

const closing: SessionEvent[] = [
  {
    ...envelope(6),
    type: 'tool.completed',
    toolCallId: 'call-1',
    toolName: 'run_command',
    result: { version: 1, status: 'error', code: 'command_failed' },
    status: 'error',
    output: '1 failing',
  },
  { ...envelope(7), type: 'turn.completed', status: 'completed', steps: 2 },
];
for (const event of closing) telemetry.record(event);
await telemetry.shutdown();

for (const span of exporter.getFinishedSpans())
  console.log(span.name, span.attributes['gen_ai.operation.name'], span.status.code === 2 ? 'error' : 'ok');
// chat claude-sonnet-4-5 chat ok
// execute_tool run_command execute_tool error
// invoke_agent clawsmith invoke_agent ok
