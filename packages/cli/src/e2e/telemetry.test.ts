import { startOtlpReceiver, testdir, type OtlpReceiver } from '@clawsmith/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, writeScript } from './cli-harness.js';

const incoming = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

let receiver: OtlpReceiver;
beforeEach(async () => {
  receiver = await startOtlpReceiver();
});
afterEach(async () => receiver.close());

describe('clawsmith run with OpenTelemetry', () => {
  it('exports the turn over OTLP when the standard variables say where, continuing --traceparent', async () => {
    const home = testdir();
    const workspace = testdir({ 'notes.md': 'secret plans\n' });
    const script = writeScript(home, [
      { toolCalls: [{ id: 'r1', name: 'read_file', arguments: { path: 'notes.md' } }] },
      { text: 'read it' },
    ]);
    const run = await runCli(
      ['run', '--script', script, '--workspace', workspace, '--traceparent', incoming, 'summarise the notes'],
      {
        home,
        env: {
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          OTEL_SERVICE_NAME: 'nightly-agent',
        },
      },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const spans = receiver.spans();
    const turn = spans.find((span) => span.name === 'invoke_agent clawsmith')!;
    expect(turn.traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(turn.parentSpanId).toBe('00f067aa0ba902b7');
    expect(turn.resource['service.name']).toBe('nightly-agent');
    const read = spans.find((span) => span.name === 'execute_tool read_file')!;
    expect(read.parentSpanId).toBe(turn.spanId);
    expect(spans.filter((span) => span.name === 'chat script.json')).toHaveLength(2);
    expect(receiver.payloadText()).not.toContain('secret plans');
  });

  it('exports nothing without an endpoint', async () => {
    const home = testdir();
    const workspace = testdir({});
    const script = writeScript(home, [{ text: 'hello' }]);
    const run = await runCli(['run', '--script', script, '--workspace', workspace, 'hi'], { home });
    expect(run.code).toBe(0);
    expect(receiver.requests).toEqual([]);
  });

  it('refuses a malformed --traceparent, saying how to write one', async () => {
    const home = testdir();
    const workspace = testdir({});
    const script = writeScript(home, [{ text: 'hello' }]);
    const run = await runCli(['run', '--script', script, '--workspace', workspace, '--traceparent', 'abc', 'hi'], {
      home,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('00-<32 hex trace id>-<16 hex span id>-<2 hex flags>');
    expect(run.stderr).toContain('[traceparent_invalid]');
  });
});
