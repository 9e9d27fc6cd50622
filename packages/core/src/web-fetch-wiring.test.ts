import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinTools } from './builtin-tools.js';
import { call, createHarness } from './__fixtures__/core-harness.js';

// A real server on 127.0.0.1, allowed explicitly; nothing here leaves 127.0.0.0/8.
let origin = '';
let close: () => Promise<void>;
const BIG_PAGE = `<!doctype html><html><head><title>Reference</title></head><body><h1>Reference</h1><pre>${'0123456789abcdef '.repeat(5 * 61_681)}</pre></body></html>`;

beforeAll(async () => {
  const server = createServer((request, response) => {
    if (request.url === '/big') response.writeHead(200, { 'content-type': 'text/html' }).end(BIG_PAGE);
    else response.writeHead(200, { 'content-type': 'text/plain' }).end('small page');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterAll(() => close());

const tools = () =>
  createBuiltinTools({ command: { sandbox: 'auto' }, webFetch: { allowance: { privateAddresses: ['127.0.0.1'] } } });

describe('web_fetch in AgentCore', () => {
  it('stores a 5 MB page as an artifact and keeps a preview inline', async () => {
    expect(Buffer.byteLength(BIG_PAGE)).toBeGreaterThan(5_000_000);
    const harness = await createHarness({
      builtinTools: tools(),
      permissionMode: 'full-auto',
      responses: [{ toolCalls: [call('f', 'web_fetch', { url: `${origin}/big` })] }, { text: 'read it' }],
    });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'fetch' });
    const [completed] = await harness.eventsOf('tool.completed');
    expect(completed!.result).toMatchObject({ status: 'success' });
    const artifact = completed!.artifact as { id: string; byteLength: number };
    expect(artifact.byteLength).toBeGreaterThan(5_000_000);
    const head = await harness.home.artifacts.readLines(harness.session.id, artifact.id, { startLine: 1, endLine: 6 });
    expect(Buffer.from(head.bytes).toString('utf8')).toContain('Title: Reference');
    expect(Buffer.byteLength(String(completed!.output))).toBeLessThanOrEqual(50_000);
  });

  it('asks before fetching by default, and domain rules decide by host', async () => {
    const harness = await createHarness({
      builtinTools: tools(),
      rules: [
        { action: 'allow', tool: 'web_fetch', domains: ['127.0.0.1'] },
        { action: 'deny', tool: 'web_fetch', domains: ['*.internal.test'] },
      ],
      responses: [
        {
          toolCalls: [
            call('a', 'web_fetch', { url: `${origin}/small` }),
            call('d', 'web_fetch', { url: 'http://wiki.internal.test/' }),
            call('q', 'web_fetch', { url: 'http://other.test/' }),
          ],
        },
        { text: 'done' },
      ],
    });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'fetch' });
    const results = Object.fromEntries(
      (await harness.eventsOf('tool.completed')).map((event) => [event.toolCallId, event.result]),
    );
    expect(results.a).toMatchObject({ status: 'success' });
    expect(results.d).toMatchObject({ status: 'denied', code: 'permission_denied' });
    // No approval handler: an ask is denied.
    expect(results.q).toMatchObject({ status: 'denied', code: 'permission_denied' });
    // The decision event records the host that was judged.
    const judged = Object.fromEntries(
      (await harness.eventsOf('tool.decision'))
        .filter((event) => event.stage === 'permission')
        .map((event) => [event.toolCallId, event.domains]),
    );
    expect(judged).toEqual({ a: ['127.0.0.1'], d: ['wiki.internal.test'], q: ['other.test'] });
  });
});
