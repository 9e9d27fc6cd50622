import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InitializeRequestSchema, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { McpServerConnection } from './server-connection.js';

/**
 * A real SDK server over Streamable HTTP on 127.0.0.1. With `answer`, it handles `initialize` as
 * a server that only knows that older revision would (the SDK's own handling, asked for it).
 * Records the `mcp-protocol-version` header of every request after `initialize`.
 */
async function serve(answer?: string): Promise<{ url: string; versions: string[] }> {
  const versions: string[] = [];
  const http: Server = createServer((request: IncomingMessage, response) => {
    const header = request.headers['mcp-protocol-version'];
    if (typeof header === 'string') versions.push(header);
    const mcp = new McpServer({ name: 'revision-test', version: '1.0.0' });
    mcp.registerTool('ping', { description: 'Answers pong', inputSchema: {} }, async () => ({
      content: [{ type: 'text', text: 'pong' }],
    }));
    if (answer) {
      const inner = mcp.server as unknown as { _oninitialize(request: unknown): Promise<unknown> };
      mcp.server.setRequestHandler(
        InitializeRequestSchema,
        (request) =>
          inner._oninitialize({ ...request, params: { ...request.params, protocolVersion: answer } }) as never,
      );
    }
    // Stateless: one server and transport per request.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => void transport.close());
    void mcp.connect(transport).then(() => transport.handleRequest(request, response));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, versions };
}

async function ping(url: string): Promise<{ text: unknown; version: string | undefined }> {
  const connection = new McpServerConnection({
    name: 'revision',
    scope: 'user',
    file: '/dev/null',
    entry: { url },
    entrySha256: 'x',
  });
  try {
    const result = await connection.callTool('ping', {}, { signal: new AbortController().signal });
    return { text: result.content?.[0]?.text, version: connection.protocolVersion };
  } finally {
    await connection.close();
  }
}

describe('McpServerConnection protocol revision', { timeout: 30_000 }, () => {
  it('asks for the newest revision the SDK supports and keeps it with a current server', async () => {
    const server = await serve();
    expect(await ping(server.url)).toEqual({ text: 'pong', version: LATEST_PROTOCOL_VERSION });
    expect(LATEST_PROTOCOL_VERSION).toBe('2025-11-25');
    expect(new Set(server.versions)).toEqual(new Set([LATEST_PROTOCOL_VERSION]));
  });

  it('falls back to the older revision a server answers with, and works', async () => {
    const server = await serve('2025-03-26');
    expect(await ping(server.url)).toEqual({ text: 'pong', version: '2025-03-26' });
    expect(new Set(server.versions)).toEqual(new Set(['2025-03-26']));
  });
});
