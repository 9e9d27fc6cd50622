import { startOtlpReceiver, testdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { parseJsonLines, runCli, writeScript } from './cli-harness.js';
import { startWeb, stop } from './web-process.js';

const clientTrace = '0af7651916cd43dd8448eb211c80319c';
const clientSpan = 'b7ad6b7169203331';

describe('clawsmith web with OpenTelemetry', { timeout: 120_000 }, () => {
  it('continues the traceparent header of the request that starts a turn', async () => {
    const receiver = await startOtlpReceiver();
    onTestFinished(() => receiver.close());
    const home = testdir();
    const workspace = testdir();
    const first = await runCli(
      [
        'run',
        '--json',
        '--script',
        writeScript(home, [{ text: 'ready' }], 'first.json'),
        '--workspace',
        workspace,
        'hi',
      ],
      { home },
    );
    const sessionId = String(parseJsonLines(first.stdout)[0]!.sessionId);
    const script = writeScript(home, [{ text: 'from the web' }], 'web.json');
    const web = await startWeb(home, ['--script', script], {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
    const started = await fetch(`${web.origin}/api/sessions/${sessionId}/turns`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${web.token}`,
        'content-type': 'application/json',
        traceparent: `00-${clientTrace}-${clientSpan}-01`,
      },
      body: JSON.stringify({ prompt: 'hello' }),
    });
    expect(started.status).toBe(202);
    // Stopped as Ctrl-C would: the runtime closes and exports what it has.
    stop(web.child);
    await web.exited;
    const turn = receiver.spans().find((span) => span.name === 'invoke_agent clawsmith');
    expect(turn?.traceId).toBe(clientTrace);
    expect(turn?.parentSpanId).toBe(clientSpan);
    expect(turn?.attributes['gen_ai.conversation.id']).toBe(sessionId);
  });
});
