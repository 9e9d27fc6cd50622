// The default export encoding, OTLP/HTTP protobuf, decoded by the receiver on 127.0.0.1 from the
// bytes on the wire: the span tree, typed attribute values (strings, integers, booleans, arrays),
// the error status, the response model, and a compaction inside its turn.
import { startOtlpReceiver, type OtlpReceiver } from '@clawsmith/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '@clawsmith/session-protocol';
import { createTelemetry } from './index.js';

let receiver: OtlpReceiver;
beforeEach(async () => {
  receiver = await startOtlpReceiver();
});
afterEach(async () => receiver.close());

let sequence = 0;
// The fields telemetry reads, as core writes them (see create-telemetry.test.ts).
function event(type: string, turnId: string | null, fields: Record<string, unknown> = {}) {
  sequence += 1;
  const createdAt = new Date().toISOString();
  return { type, sessionId: 'session-pb', turnId, sequence, createdAt, ...fields } as unknown as SessionEvent;
}

const compacted = (turnId: string | null, reason: string) =>
  event('context.compacted', turnId, {
    reason,
    prunedThroughMessage: 4,
    prunedToolResults: 3,
    artifacts: [],
    summarizedThroughMessage: 2,
    summary: 'The person asked for the build to be fixed; the secret summary text.',
    contextWindow: 32_768,
    tokensBefore: 27_000,
    tokensAfter: 9_000,
  });

function turnWithCompaction(): SessionEvent[] {
  return [
    event('turn.started', 't1', { prompt: 'fix the build, the private prompt text' }),
    compacted('t1', 'threshold'),
    event('request.started', 't1', { requestId: 'r1', step: 1 }),
    event('request.completed', 't1', {
      requestId: 'r1',
      finishReason: 'tool-calls',
      usage: { inputTokens: 9_100, outputTokens: 40, cacheReadTokens: 8_000 },
      responseModel: 'gpt-test-2026-12-01',
    }),
    event('assistant.message', 't1', { text: 'Running it.', toolCalls: [] }),
    event('tool.started', 't1', { toolCallId: 'c1', toolName: 'run_command', summary: 'npm test', risk: 'execute' }),
    event('tool.completed', 't1', {
      toolCallId: 'c1',
      toolName: 'run_command',
      result: { status: 'error', code: 'command_failed' },
      output: 'the private command output',
    }),
    event('turn.completed', 't1', { status: 'completed', steps: 1 }),
  ];
}

describe('OTLP/HTTP protobuf export', () => {
  it('puts the turn’s spans on the wire as protobuf, with typed attributes and the response model', async () => {
    const telemetry = await createTelemetry({
      environment: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_SERVICE_NAME: 'pb-agent' },
      model: { name: 'openai', model: 'gpt-test' },
    });
    for (const item of turnWithCompaction()) telemetry.record(item);
    // `/compact` between turns: a compaction of its own, outside any turn.
    telemetry.record(compacted(null, 'manual'));
    await telemetry.shutdown();

    const traceRequests = receiver.requests.filter((request) => request.path === '/v1/traces');
    expect(traceRequests.length).toBeGreaterThan(0);
    for (const request of traceRequests) expect(request.contentType).toBe('application/x-protobuf');

    const spans = receiver.spans();
    expect(spans.map((span) => span.name).sort()).toEqual([
      'chat gpt-test',
      'compact',
      'compact',
      'execute_tool run_command',
      'invoke_agent clawsmith',
    ]);
    const turn = spans.find((span) => span.name === 'invoke_agent clawsmith')!;
    const chat = spans.find((span) => span.name === 'chat gpt-test')!;
    const call = spans.find((span) => span.name === 'execute_tool run_command')!;
    const inTurn = spans.find((span) => span.name === 'compact' && span.attributes['clawsmith.turn.id'] === 't1')!;
    const manual = spans.find((span) => span.name === 'compact' && span !== inTurn)!;

    expect(turn.resource['service.name']).toBe('pb-agent');
    expect(turn.scope).not.toBe('');
    expect(turn.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(turn.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(turn.parentSpanId).toBe('');
    for (const child of [chat, call, inTurn]) {
      expect(child.traceId).toBe(turn.traceId);
      expect(child.parentSpanId).toBe(turn.spanId);
    }
    expect(manual.parentSpanId).toBe('');
    expect(manual.traceId).not.toBe(turn.traceId);

    expect(chat.kind).toBe(3); // SPAN_KIND_CLIENT
    expect(chat.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-test',
      'gen_ai.conversation.id': 'session-pb',
      'gen_ai.response.model': 'gpt-test-2026-12-01',
      'gen_ai.response.finish_reasons': ['tool_calls'],
      'gen_ai.usage.input_tokens': 9_100,
      'gen_ai.usage.output_tokens': 40,
      'gen_ai.usage.cache_read.input_tokens': 8_000,
    });
    expect(inTurn.kind).toBe(1); // SPAN_KIND_INTERNAL
    expect(inTurn.attributes).toEqual({
      'gen_ai.conversation.id': 'session-pb',
      'clawsmith.turn.id': 't1',
      'clawsmith.compaction.reason': 'threshold',
      'clawsmith.compaction.pruned_tool_results': 3,
      'clawsmith.compaction.summarized': true,
      'clawsmith.compaction.context_window': 32_768,
      'clawsmith.compaction.tokens_before': 27_000,
      'clawsmith.compaction.tokens_after': 9_000,
    });
    expect(manual.attributes['clawsmith.compaction.reason']).toBe('manual');
    expect(call.statusCode).toBe(2);
    expect(call.statusMessage).toBe('command_failed');
    expect(call.attributes).toMatchObject({ 'error.type': 'command_failed', 'clawsmith.tool.risk': 'execute' });

    // Content capture is off: no prompt, summary or output anywhere in the bytes sent.
    const payload = receiver.payloadText();
    for (const content of ['private prompt text', 'secret summary text', 'Running it.', 'private command output'])
      expect(payload).not.toContain(content);
  });
});
