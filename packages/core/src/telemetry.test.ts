// One turn traced end to end with the real OpenTelemetry SDK exporting OTLP/HTTP JSON to a
// receiver on 127.0.0.1: its model requests, a read, an edit, a command that reports the
// TRACEPARENT it was started with, a subagent, a denied call and a failed command.
import { createTelemetry, type Telemetry } from '@clawsmith/telemetry';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '@clawsmith/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, createHarness } from './__fixtures__/core-harness.js';
import { createBuiltinTools } from './builtin-tools.js';

const secret = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const fileText = 'the quarterly numbers are confidential';

let receiver: OtlpReceiver;
beforeEach(async () => {
  receiver = await startOtlpReceiver();
});
afterEach(async () => receiver.close());

async function tracedTurn(captureContent: boolean) {
  const telemetry: Telemetry = await createTelemetry({
    environment: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
    captureContent,
    model: { name: 'scripted', model: 'script-model' },
  });
  const harness = await createHarness({
    files: { 'notes.txt': `${fileText}\n`, 'old.log': 'log line\n' },
    builtinTools: createBuiltinTools({ command: { sandbox: 'auto' } }),
    permissionMode: 'full-auto',
    rules: [{ action: 'deny', tool: 'delete_file', reason: 'logs stay' }],
    traceContext: telemetry.traceContextOf,
    responses: [
      {
        usage: { inputTokens: 300, outputTokens: 40 },
        model: 'script-model-2026-12-01',
        toolCalls: [
          call('read', 'read_file', { path: 'notes.txt' }),
          call('edit', 'edit_file', { path: 'notes.txt', oldText: 'quarterly', newText: 'yearly' }),
          call('command', 'run_command', { command: 'echo "seen-traceparent=$TRACEPARENT"' }),
          call('delegate', 'delegate_task', { prompt: 'read the notes' }),
          call('delete', 'delete_file', { path: 'old.log' }),
          call('failing', 'run_command', { command: 'echo broken-build-output; exit 3' }),
        ],
      },
      { text: 'done', usage: { inputTokens: 500, outputTokens: 5 } },
    ],
    children: {
      delegate: [{ toolCalls: [call('child-read', 'read_file', { path: 'notes.txt' })] }, { text: 'child read it' }],
    },
  });
  const unsubscribe = harness.core.subscribe(telemetry.record);
  const result = await harness.core.runTurn({
    sessionId: harness.session.id,
    prompt: `tidy the notes; the token is ${secret}`,
  });
  unsubscribe();
  await telemetry.shutdown();
  return { harness, result };
}

function only(spans: readonly ReceivedSpan[], name: string): ReceivedSpan {
  const matching = spans.filter((span) => span.name === name);
  expect(matching, name).toHaveLength(1);
  return matching[0]!;
}

describe('telemetry of a turn', () => {
  it('exports one trace: turn, chats, calls, the command and the subagent under the call that started them', async () => {
    const { harness, result } = await tracedTurn(false);
    expect(result.status).toBe('completed');
    const spans = receiver.spans();
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);

    const turns = spans.filter((span) => span.name === 'invoke_agent clawsmith');
    expect(turns).toHaveLength(2);
    const parentTurn = turns.find((span) => span.parentSpanId === '')!;
    expect(parentTurn.attributes).toMatchObject({
      'gen_ai.conversation.id': harness.session.id,
      'clawsmith.turn.status': 'completed',
    });
    const chats = spans.filter((span) => span.name === 'chat script-model');
    expect(chats.filter((span) => span.parentSpanId === parentTurn.spanId)).toHaveLength(2);
    expect(chats.find((span) => span.attributes['gen_ai.usage.input_tokens'] === 300)?.attributes).toMatchObject({
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'script-model',
      'gen_ai.usage.output_tokens': 40,
      'gen_ai.response.finish_reasons': ['tool_calls'],
      // The model the answer named, carried by request.completed from the provider's finish.
      'gen_ai.response.model': 'script-model-2026-12-01',
    });
    // An answer that names no model leaves the attribute out rather than guessing.
    const second = chats.find((span) => span.attributes['gen_ai.usage.input_tokens'] === 500)!;
    expect(second.attributes['gen_ai.response.model']).toBeUndefined();

    const read = spans.find(
      (span) => span.name === 'execute_tool read_file' && span.attributes['gen_ai.tool.call.id'] === 'read',
    )!;
    const edit = only(spans, 'execute_tool edit_file');
    const command = spans.find((span) => span.attributes['gen_ai.tool.call.id'] === 'command')!;
    const delegate = only(spans, 'execute_tool delegate_task');
    for (const span of [read, edit, command, delegate]) {
      expect(span.parentSpanId).toBe(parentTurn.spanId);
      expect(span.statusCode).not.toBe(2);
    }
    expect(edit.attributes).toMatchObject({
      'gen_ai.tool.type': 'function',
      'clawsmith.tool.risk': 'workspace-write',
      'clawsmith.decision': 'allow',
      'clawsmith.tool.status': 'success',
    });

    // The command's own process saw the traceparent of its execute_tool span.
    const [completedCommand] = (await harness.eventsOf('tool.completed')).filter(
      (event) => event.toolCallId === 'command',
    );
    expect(String(completedCommand?.output)).toContain(`seen-traceparent=00-${command.traceId}-${command.spanId}-01`);

    // The subagent's turn sits under the delegating call; its own calls under its turn.
    const childTurn = turns.find((span) => span !== parentTurn)!;
    expect(childTurn.parentSpanId).toBe(delegate.spanId);
    expect(childTurn.attributes).toMatchObject({
      'clawsmith.delegation.kind': 'task',
      'clawsmith.delegation.parent_session_id': harness.session.id,
    });
    const childRead = spans.find((span) => span.attributes['gen_ai.tool.call.id'] === 'child-read')!;
    expect(childRead.parentSpanId).toBe(childTurn.spanId);
    expect(chats.filter((span) => span.parentSpanId === childTurn.spanId)).toHaveLength(2);
  });

  it('marks a denied call and a failed command with error status', async () => {
    await tracedTurn(false);
    const spans = receiver.spans();
    const denied = only(spans, 'execute_tool delete_file');
    expect(denied.statusCode).toBe(2);
    expect(denied.attributes).toMatchObject({
      'clawsmith.decision': 'deny',
      'clawsmith.decision.stage': 'permission',
      'clawsmith.tool.status': 'denied',
      'error.type': 'permission_denied',
    });
    const failed = spans.find((span) => span.attributes['gen_ai.tool.call.id'] === 'failing')!;
    expect(failed.statusCode).toBe(2);
    expect(failed.attributes).toMatchObject({ 'clawsmith.tool.status': 'error', 'error.type': 'command_failed' });
    const denials = receiver.metrics().find((metric) => metric.name === 'clawsmith.tool.denials');
    expect(denials?.points).toEqual([
      { attributes: { 'gen_ai.tool.name': 'delete_file', 'clawsmith.decision.stage': 'permission' }, value: 1 },
    ]);
  });

  it('exports no prompt, file text or command output anywhere in the payload with content capture off', async () => {
    await tracedTurn(false);
    const payload = receiver.payloadText();
    expect(payload).toContain('execute_tool read_file');
    for (const content of [
      'tidy the notes',
      secret,
      'quarterly numbers',
      'confidential',
      'seen-traceparent',
      'broken-build-output',
    ])
      expect(payload).not.toContain(content);
  });

  it('records prompts and results with secrets redacted when content capture is on', async () => {
    await tracedTurn(true);
    const spans = receiver.spans();
    const parentTurn = spans.find((span) => span.name === 'invoke_agent clawsmith' && span.parentSpanId === '')!;
    expect(String(parentTurn.attributes['gen_ai.input.messages'])).toContain('the token is [REDACTED]');
    const read = spans.find((span) => span.attributes['gen_ai.tool.call.id'] === 'read')!;
    expect(String(read.attributes['gen_ai.tool.call.result'])).toContain('quarterly numbers');
    expect(receiver.payloadText()).not.toContain(secret);
  });
});
