import { startOtlpReceiver, testdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { connectServe } from './mcp-serve-harness.js';

const clientTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
const clientSpan = '00f067aa0ba902b7';

describe('clawsmith mcp serve with OpenTelemetry', { timeout: 120_000 }, () => {
  it("continues the client's trace from _meta.traceparent, down to the command's TRACEPARENT", async () => {
    const receiver = await startOtlpReceiver();
    onTestFinished(() => receiver.close());
    const served = await connectServe({
      home: testdir(),
      workspace: testdir(),
      extraArgs: ['--permission-mode', 'full-auto'],
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
    });
    const result = await served.client.callTool({
      name: 'run_command',
      arguments: { command: 'echo "seen=$TRACEPARENT"' },
      _meta: { traceparent: `00-${clientTrace}-${clientSpan}-01` },
    });
    await served.client.close();
    await expect
      .poll(() => receiver.spans().some((span) => span.name === 'execute_tool run_command'), { timeout: 30_000 })
      .toBe(true);
    const spans = receiver.spans();
    const turn = spans.find((span) => span.name === 'invoke_agent clawsmith')!;
    expect(turn.traceId).toBe(clientTrace);
    expect(turn.parentSpanId).toBe(clientSpan);
    const command = spans.find((span) => span.name === 'execute_tool run_command')!;
    expect(command.parentSpanId).toBe(turn.spanId);
    expect(served.text(result as Parameters<typeof served.text>[0])).toContain(
      `seen=00-${clientTrace}-${command.spanId}-01`,
    );
  });
});
