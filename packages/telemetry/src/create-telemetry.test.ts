import { startOtlpReceiver, type OtlpReceiver } from '@clawsmith/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '@clawsmith/session-protocol';
import { createTelemetry } from './index.js';

let receiver: OtlpReceiver;
beforeEach(async () => {
  receiver = await startOtlpReceiver();
});
afterEach(async () => receiver.close());

function otlpEnvironment(extra: Record<string, string> = {}): Record<string, string> {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_SERVICE_NAME: 'agent-under-test',
    OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=ci,team=tools%20team',
    ...extra,
  };
}

let sequence = 0;
// The fields telemetry reads, as core writes them; fields it never reads (restore points,
// capabilities) are left out, hence the cast. The core test feeds complete events.
function event(type: string, sessionId: string, turnId: string | null, fields: Record<string, unknown> = {}) {
  sequence += 1;
  return {
    type,
    sessionId,
    turnId,
    sequence,
    createdAt: new Date().toISOString(),
    ...fields,
  } as unknown as SessionEvent;
}

const secret = 'sk-ant-abcdefghijklmnopqrstuvwxyz0123';

/** A turn whose one call is denied, and whose model request reports usage. */
function deniedTurn(): SessionEvent[] {
  return [
    event('turn.started', 's1', 't1', { prompt: `delete the logs, key ${secret}` }),
    event('request.started', 's1', 't1', { requestId: 'r1', step: 1 }),
    event('request.completed', 's1', 't1', {
      requestId: 'r1',
      finishReason: 'tool-calls',
      usage: { inputTokens: 120, outputTokens: 7 },
    }),
    event('assistant.message', 's1', 't1', { text: 'I will delete them.', toolCalls: [] }),
    event('tool.decision', 's1', 't1', {
      toolCallId: 'c1',
      toolName: 'delete_file',
      stage: 'permission',
      action: 'deny',
      reason: 'rule',
    }),
    event('tool.completed', 's1', 't1', {
      toolCallId: 'c1',
      toolName: 'delete_file',
      status: 'denied',
      result: { status: 'denied', code: 'permission_denied' },
      output: 'Denied: logs/app.log',
    }),
    event('turn.completed', 's1', 't1', { status: 'completed', steps: 1 }),
  ];
}

describe('createTelemetry', () => {
  it('is off, loading nothing, without an endpoint or a provider', async () => {
    const telemetry = await createTelemetry({ environment: {} });
    expect(telemetry.enabled).toBe(false);
    for (const item of deniedTurn()) telemetry.record(item);
    await telemetry.flush();
    expect(receiver.requests).toEqual([]);
  });

  it('exports spans over OTLP/HTTP JSON with the GenAI attributes, resource and error status', async () => {
    const telemetry = await createTelemetry({
      environment: otlpEnvironment(),
      model: { name: 'anthropic', model: 'claude-test' },
    });
    for (const item of deniedTurn()) telemetry.record(item);
    await telemetry.shutdown();
    const spans = receiver.spans();
    expect(spans.map((span) => span.name).sort()).toEqual([
      'chat claude-test',
      'execute_tool delete_file',
      'invoke_agent clawsmith',
    ]);
    const turn = spans.find((span) => span.name === 'invoke_agent clawsmith')!;
    const chat = spans.find((span) => span.name.startsWith('chat'))!;
    const call = spans.find((span) => span.name.startsWith('execute_tool'))!;
    expect(turn.resource).toMatchObject({
      'service.name': 'agent-under-test',
      'deployment.environment.name': 'ci',
      team: 'tools team',
    });
    expect(turn.parentSpanId).toBe('');
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
    expect(chat.parentSpanId).toBe(turn.spanId);
    expect(call.parentSpanId).toBe(turn.spanId);
    expect(turn.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.conversation.id': 's1',
      'gen_ai.agent.name': 'clawsmith',
      'clawsmith.turn.status': 'completed',
    });
    expect(chat.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-test',
      'gen_ai.response.finish_reasons': ['tool_calls'],
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 7,
    });
    expect(chat.kind).toBe(3); // OTLP's SPAN_KIND_CLIENT
    expect(call.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'delete_file',
      'gen_ai.tool.call.id': 'c1',
      'gen_ai.tool.type': 'function',
      'clawsmith.decision': 'deny',
      'clawsmith.decision.stage': 'permission',
      'clawsmith.tool.status': 'denied',
      'error.type': 'permission_denied',
    });
    expect(call.statusCode).toBe(2);
  });

  it('exports the token, duration and denial metrics', async () => {
    const telemetry = await createTelemetry({
      environment: otlpEnvironment(),
      model: { name: 'anthropic', model: 'claude-test' },
    });
    for (const item of deniedTurn()) telemetry.record(item);
    await telemetry.shutdown();
    const metrics = new Map(receiver.metrics().map((metric) => [metric.name, metric]));
    const tokens = metrics.get('gen_ai.client.token.usage')!;
    expect(tokens.unit).toBe('{token}');
    expect(
      tokens.points.map((point) => [point.attributes['gen_ai.token.type'], point.value, point.count]).sort(),
    ).toEqual([
      ['input', 120, 1],
      ['output', 7, 1],
    ]);
    expect(metrics.get('gen_ai.client.operation.duration')?.points[0]?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
    });
    expect(metrics.get('gen_ai.execute_tool.duration')?.points[0]?.attributes).toMatchObject({
      'gen_ai.tool.name': 'delete_file',
      'error.type': 'permission_denied',
    });
    expect(metrics.get('clawsmith.tool.denials')?.points).toEqual([
      { attributes: { 'gen_ai.tool.name': 'delete_file', 'clawsmith.decision.stage': 'permission' }, value: 1 },
    ]);
  });

  it('records no prompt, answer or tool output unless content capture is on', async () => {
    const telemetry = await createTelemetry({ environment: otlpEnvironment() });
    for (const item of deniedTurn()) telemetry.record(item);
    await telemetry.shutdown();
    const payload = receiver.payloadText();
    expect(payload).toContain('delete_file');
    for (const content of ['delete the logs', secret, 'I will delete them', 'logs/app.log'])
      expect(payload).not.toContain(content);
  });

  it('records content with secrets redacted when capture is on', async () => {
    const telemetry = await createTelemetry({
      environment: otlpEnvironment({ CLAWSMITH_OTEL_CAPTURE_CONTENT: 'true' }),
    });
    for (const item of deniedTurn()) telemetry.record(item);
    await telemetry.shutdown();
    const spans = receiver.spans();
    const turn = spans.find((span) => span.name.startsWith('invoke_agent'))!;
    expect(JSON.parse(String(turn.attributes['gen_ai.input.messages']))).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'delete the logs, key [REDACTED]' }] },
    ]);
    const call = spans.find((span) => span.name.startsWith('execute_tool'))!;
    expect(call.attributes['gen_ai.tool.call.result']).toBe('Denied: logs/app.log');
    expect(receiver.payloadText()).not.toContain(secret);
  });

  it('continues an incoming traceparent from the environment', async () => {
    const telemetry = await createTelemetry({
      environment: otlpEnvironment({
        TRACEPARENT: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
        TRACESTATE: 'vendor=1',
      }),
    });
    for (const item of deniedTurn()) telemetry.record(item);
    await telemetry.shutdown();
    const turn = receiver.spans().find((span) => span.name.startsWith('invoke_agent'))!;
    expect(turn.traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(turn.parentSpanId).toBe('00f067aa0ba902b7');
  });

  it('gives a running call the traceparent of its execute_tool span, and nothing once it ended', async () => {
    const telemetry = await createTelemetry({ environment: otlpEnvironment() });
    telemetry.record(event('turn.started', 's2', 't1', { prompt: 'x' }));
    telemetry.record(
      event('tool.started', 's2', 't1', { toolCallId: 'c9', toolName: 'run_command', summary: 'x', risk: 'execute' }),
    );
    const context = telemetry.traceContextOf({ sessionId: 's2', turnId: 't1', toolCallId: 'c9' });
    telemetry.record(
      event('tool.completed', 's2', 't1', {
        toolCallId: 'c9',
        toolName: 'run_command',
        result: { status: 'error', code: 'command_failed' },
        output: '',
      }),
    );
    expect(telemetry.traceContextOf({ sessionId: 's2', turnId: 't1', toolCallId: 'c9' })).toBeUndefined();
    telemetry.record(event('turn.completed', 's2', 't1', { status: 'completed', steps: 1 }));
    await telemetry.shutdown();
    const call = receiver.spans().find((span) => span.name === 'execute_tool run_command')!;
    expect(context?.traceparent).toBe(`00-${call.traceId}-${call.spanId}-01`);
    expect(call.statusCode).toBe(2);
    expect(call.attributes['error.type']).toBe('command_failed');
  });

  it('refuses a protocol it cannot export with, saying what to use', async () => {
    await expect(
      createTelemetry({ environment: otlpEnvironment({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }) }),
    ).rejects.toThrow(/use http\/protobuf \(the default\) or http\/json/);
  });
});

describe('Telemetry.shutdown', () => {
  it('exports the spans of a turn still running, marked unfinished', async () => {
    const telemetry = await createTelemetry({ environment: otlpEnvironment() });
    telemetry.record(event('turn.started', 's3', 't1', { prompt: 'x' }));
    telemetry.record(event('tool.started', 's3', 't1', { toolCallId: 'c1', toolName: 'run_command', summary: 'x' }));
    await telemetry.shutdown();
    const spans = receiver.spans();
    expect(spans.map((span) => [span.name, span.attributes['clawsmith.unfinished']]).sort()).toEqual([
      ['execute_tool run_command', true],
      ['invoke_agent clawsmith', true],
    ]);
  });
});
