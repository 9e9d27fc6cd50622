import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createTelemetry } from '@clawsmith/telemetry';

// Your own tracer provider: spans go there, and no exporter of this package is created.
const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const telemetry = await createTelemetry({ tracerProvider, model: { name: 'anthropic', model: 'claude-sonnet-4-5' } });

// In a program, core hands every event over as it persists it:
//   createAgentCore({ ..., traceContext: telemetry.traceContextOf }); core.subscribe(telemetry.record);
// Here, the events of a turn with one model request and one command, as core writes them.
const turn = { sessionId: 'session-1', turnId: 'turn-1', createdAt: new Date().toISOString() };
const events = [
  { type: 'turn.started', prompt: 'run the tests' },
  { type: 'request.started', requestId: 'request-1' },
  {
    type: 'request.completed',
    requestId: 'request-1',
    finishReason: 'tool-calls',
    usage: { inputTokens: 900, outputTokens: 30 },
  },
  { type: 'assistant.message', text: '' },
  { type: 'tool.started', toolCallId: 'call-1', toolName: 'run_command', summary: 'npm test', risk: 'execute' },
];
let sequence = 0;
for (const event of events) telemetry.record({ ...turn, ...event, sequence: ++sequence });

// While the call runs, its command gets this as TRACEPARENT.
console.log(
  'TRACEPARENT',
  telemetry.traceContextOf({ sessionId: 'session-1', turnId: 'turn-1', toolCallId: 'call-1' })?.traceparent,
);

const closing = [
  {
    type: 'tool.completed',
    toolCallId: 'call-1',
    toolName: 'run_command',
    result: { status: 'error', code: 'command_failed' },
    output: '1 failing',
  },
  { type: 'turn.completed', status: 'completed', steps: 2 },
];
for (const event of closing) telemetry.record({ ...turn, ...event, sequence: ++sequence });
await telemetry.shutdown();

for (const span of exporter.getFinishedSpans())
  console.log(span.name, span.attributes['gen_ai.operation.name'], span.status.code === 2 ? 'error' : 'ok');
// chat claude-sonnet-4-5 chat ok
// execute_tool run_command execute_tool error
// invoke_agent clawsmith invoke_agent ok
