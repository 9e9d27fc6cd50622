// The Streamable HTTP endpoint's bounds, through real HTTP on 127.0.0.1 and the MCP SDK's own
// client: an oversized body gets the documented 413 (not a reset), sessions have a cap and an
// idle expiry.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVED_HTTP_MAX_BODY_BYTES, serveMcpOverHttp, type ServedHttpEndpoint } from './serve-http.js';
import type { ServedSession, ServedWorkspace } from './served-session.js';

/** A workspace with no tools: these bounds are the transport's, whatever is served. */
function emptyWorkspace(closedSessions: string[]): ServedWorkspace {
  let count = 0;
  return {
    workspaceRoot: '/nonexistent-workspace',
    permissionMode: 'read-only',
    async openSession() {
      count += 1;
      const sessionId = `session-${count}`;
      const session: ServedSession = {
        sessionId,
        tools: async () => [],
        call: async () => {
          throw new Error('no tools here');
        },
        restorePoints: async () => [],
        diff: async () => {
          throw new Error('no restore points here');
        },
        undo: async () => ({ status: 'already_undone' }),
        readArtifact: async () => {
          throw new Error('no artifacts here');
        },
        close: async () => {
          closedSessions.push(sessionId);
        },
      };
      return session;
    },
  };
}

const endpoints: ServedHttpEndpoint[] = [];
afterEach(async () => {
  await Promise.all(endpoints.splice(0).map((endpoint) => endpoint.close()));
});

async function serve(options: { maxSessions?: number; sessionIdleMs?: number } = {}, closed: string[] = []) {
  const endpoint = await serveMcpOverHttp({ workspace: emptyWorkspace(closed), guard: () => undefined, ...options });
  endpoints.push(endpoint);
  return endpoint;
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'bounds-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('serveMcpOverHttp bounds', () => {
  it('answers an oversized body with 413 payload_too_large, and keeps serving', async () => {
    const endpoint = await serve();
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
      params: { pad: 'x'.repeat(SERVED_HTTP_MAX_BODY_BYTES) },
    });
    const response = await fetch(endpoint.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body,
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: 'payload_too_large' } });
    const client = await connect(endpoint.url);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });

  it('refuses an initialize beyond the session cap with 503 too_many_sessions, and admits one again after a DELETE', async () => {
    const endpoint = await serve({ maxSessions: 2 });
    const first = await connect(endpoint.url);
    const second = await connect(endpoint.url);
    expect(endpoint.openSessions()).toBe(2);
    const refused = await fetch(endpoint.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'third', version: '1' } },
      }),
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).not.toBeNull();
    expect(await refused.json()).toMatchObject({
      error: { code: 'too_many_sessions', message: expect.stringContaining('DELETE /mcp') },
    });
    await (first.transport as StreamableHTTPClientTransport).terminateSession();
    await until(() => endpoint.openSessions() === 1, 'the deleted session to close');
    const third = await connect(endpoint.url);
    expect(endpoint.openSessions()).toBe(2);
    await Promise.all([second.close(), third.close()]);
  });

  it('closes a session idle past sessionIdleMs, ending its clawsmith session; the client must initialize again', async () => {
    const closed: string[] = [];
    // Long enough that the client's next request always comes first, however loaded the machine
    // (with 300 ms, a run at load 26 saw the session expire between initialize and tools/list).
    const endpoint = await serve({ sessionIdleMs: 2_000 }, closed);
    const client = await connect(endpoint.url);
    // The clawsmith session opens with the first request after initialize.
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect(endpoint.openSessions()).toBe(1);
    await until(() => endpoint.openSessions() === 0, 'the idle session to expire');
    await until(() => closed.length === 1, 'its clawsmith session to close');
    await expect(client.listTools()).rejects.toThrow();
    const again = await connect(endpoint.url);
    expect((await again.listTools()).tools.length).toBeGreaterThan(0);
    await again.close();
  });
});
