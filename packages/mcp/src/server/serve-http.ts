import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createServedMcpServer, type ServedMcpServerOptions } from './served-mcp-server.js';

/** The path MCP clients post to. */
export const SERVED_HTTP_PATH = '/mcp';

/** Largest request body accepted (an MCP message), in bytes. */
export const SERVED_HTTP_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A refusal by the guard: the HTTP status and the JSON error body's code and message. */
export interface HttpGuardRefusal {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly retryAfterSeconds?: number;
}

/**
 * Judges every request before MCP sees it (the token, `Host` and `Origin` rules live with the
 * caller: the `clawsmith` command passes the web server's). Returns a refusal or undefined.
 */
export type HttpRequestGuard = (request: IncomingMessage) => HttpGuardRefusal | undefined;

/** Options of {@link serveMcpOverHttp}. */
export interface ServeMcpOverHttpOptions extends ServedMcpServerOptions {
  readonly guard: HttpRequestGuard;
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /** Default 0 (a free port). */
  readonly port?: number;
}

/** A running Streamable HTTP endpoint. */
export interface ServedHttpEndpoint {
  /** `http://host:port/mcp` */
  readonly url: string;
  readonly port: number;
  /** MCP sessions open now. */
  openSessions(): number;
  /** Closes every MCP session (cancelling their calls, closing their clawsmith sessions) and stops listening. */
  close(): Promise<void>;
}

function refuse(response: ServerResponse, status: number, code: string, message: string, retryAfter?: number): void {
  if (response.headersSent) return;
  response.writeHead(status, {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    ...(retryAfter !== undefined ? { 'retry-after': String(retryAfter) } : {}),
  });
  response.end(JSON.stringify({ error: { code, message } }));
}

function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > SERVED_HTTP_MAX_BODY_BYTES) {
        resolve(undefined);
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function requestIds(messages: readonly JSONRPCMessage[]): (string | number)[] {
  return messages.flatMap((message) =>
    'method' in message && 'id' in message && message.method === 'tools/call' ? [message.id] : [],
  );
}

/**
 * Serves a workspace over MCP's Streamable HTTP transport on `host:port` (127.0.0.1 by
 * default), path `/mcp`. Every request passes `guard` first. Each MCP session (started by an
 * `initialize` POST, named by `Mcp-Session-Id`) is one served connection: one clawsmith
 * session. A client whose response stream closes before a call's answer (it disconnected) gets
 * that call cancelled; `DELETE` ends the session.
 */
export async function serveMcpOverHttp(options: ServeMcpOverHttpOptions): Promise<ServedHttpEndpoint> {
  const host = options.host ?? '127.0.0.1';
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; closed: Promise<void> }>();

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const refusal = options.guard(request);
    if (refusal) return refuse(response, refusal.status, refusal.code, refusal.message, refusal.retryAfterSeconds);
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== SERVED_HTTP_PATH)
      return refuse(response, 404, 'route_not_found', `MCP is served at ${SERVED_HTTP_PATH}.`);
    let body: unknown;
    if (request.method === 'POST') {
      const text = await readBody(request);
      if (text === undefined)
        return refuse(
          response,
          413,
          'payload_too_large',
          `A message may be at most ${SERVED_HTTP_MAX_BODY_BYTES} bytes.`,
        );
      try {
        body = JSON.parse(text);
      } catch {
        return refuse(response, 400, 'invalid_json', 'The body is not JSON; send JSON-RPC messages.');
      }
    }
    const sessionHeader = request.headers['mcp-session-id'];
    const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader;
    let transport = sessionId ? sessions.get(sessionId)?.transport : undefined;
    if (!transport) {
      const messages = Array.isArray(body) ? body : [body];
      if (sessionId || request.method !== 'POST' || !messages.some((message) => isInitializeRequest(message)))
        return refuse(
          response,
          sessionId ? 404 : 400,
          sessionId ? 'session_not_found' : 'invalid_request',
          sessionId
            ? 'This MCP session is unknown or ended; initialize a new one.'
            : 'Start with an initialize request (no Mcp-Session-Id).',
        );
      const connection = createServedMcpServer(options);
      const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, { transport: created, closed: connection.closed });
        },
      });
      created.onclose = () => {
        if (created.sessionId) sessions.delete(created.sessionId);
      };
      await connection.server.connect(created);
      transport = created;
    }
    if (request.method === 'POST') {
      // A client that goes away mid-call closes this response first: cancel the calls it carried.
      const calls = requestIds((Array.isArray(body) ? body : [body]) as JSONRPCMessage[]);
      const current = transport;
      response.once('close', () => {
        if (response.writableFinished) return;
        for (const requestId of calls)
          current.onmessage?.({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId, reason: 'The client disconnected.' },
          });
      });
    }
    await transport.handleRequest(request, response, body);
  };

  const server: HttpServer = createServer((request, response) => {
    handle(request, response).catch((error: unknown) =>
      refuse(response, 500, 'internal_error', error instanceof Error ? error.message : String(error)),
    );
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve((server.address() as AddressInfo).port));
  });
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url: `${origin}${SERVED_HTTP_PATH}`,
    port,
    openSessions: () => sessions.size,
    async close() {
      const open = [...sessions.values()];
      await Promise.all(open.map(({ transport }) => transport.close().catch(() => undefined)));
      await Promise.all(open.map(({ closed }) => closed));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
