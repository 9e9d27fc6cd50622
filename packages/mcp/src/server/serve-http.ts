import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
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
  /** MCP sessions open at once; an `initialize` beyond it gets 503 `too_many_sessions`. Default {@link SERVED_HTTP_MAX_SESSIONS}. */
  readonly maxSessions?: number;
  /** A session without a request for this long (and none in progress) is closed. Default {@link SERVED_HTTP_SESSION_IDLE_MS}. */
  readonly sessionIdleMs?: number;
}

/** Default cap on MCP sessions open at once. */
export const SERVED_HTTP_MAX_SESSIONS = 16;

/** Default idle time after which an MCP session is closed: 30 minutes. */
export const SERVED_HTTP_SESSION_IDLE_MS = 30 * 60 * 1000;

interface OpenSession {
  readonly transport: StreamableHTTPServerTransport;
  readonly closed: Promise<void>;
  /** When its last request ended (or began). */
  lastActive: number;
  /** POST requests of it in progress (a call's response stream); a standing GET stream does not count. */
  active: number;
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

/** How much of an oversized body is read (and dropped) so the 413 reaches the client; past it the connection is cut. */
const DISCARDED_BODY_BYTES = 4 * SERVED_HTTP_MAX_BODY_BYTES;

/**
 * Reads a request body up to {@link SERVED_HTTP_MAX_BODY_BYTES}: `undefined` when larger. An
 * oversized body is still read to its end (and dropped), up to a bound, because a server that
 * stops reading and closes makes the client see a reset instead of the 413.
 */
function readBody(request: IncomingMessage): Promise<{ text?: string; cut: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const declared = Number(request.headers['content-length'] ?? 0);
    request.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > DISCARDED_BODY_BYTES || declared > DISCARDED_BODY_BYTES) {
        request.pause();
        resolve({ cut: true });
        return;
      }
      if (size <= SERVED_HTTP_MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () =>
      resolve(
        size > SERVED_HTTP_MAX_BODY_BYTES
          ? { cut: false }
          : { text: Buffer.concat(chunks).toString('utf8'), cut: false },
      ),
    );
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
  // Imported here, not with this module: the SDK's HTTP transport brings an HTTP adapter whose
  // load makes Node load its fetch implementation, which a stdio server never needs.
  const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const host = options.host ?? '127.0.0.1';
  const maxSessions = options.maxSessions ?? SERVED_HTTP_MAX_SESSIONS;
  const idleMs = options.sessionIdleMs ?? SERVED_HTTP_SESSION_IDLE_MS;
  const sessions = new Map<string, OpenSession>();
  let starting = 0;
  const expireIdle = () => {
    const now = Date.now();
    for (const session of sessions.values())
      if (session.active === 0 && now - session.lastActive >= idleMs)
        void session.transport.close().catch(() => undefined);
  };
  const sweeper = setInterval(expireIdle, Math.max(10, Math.min(idleMs / 2, 60_000)));
  sweeper.unref();

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const refusal = options.guard(request);
    if (refusal) return refuse(response, refusal.status, refusal.code, refusal.message, refusal.retryAfterSeconds);
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== SERVED_HTTP_PATH)
      return refuse(response, 404, 'route_not_found', `MCP is served at ${SERVED_HTTP_PATH}.`);
    let body: unknown;
    if (request.method === 'POST') {
      const { text, cut } = await readBody(request);
      if (text === undefined) {
        // The connection cannot be reused after a body left unread: close it once the 413 is out.
        if (cut) response.once('finish', () => request.socket.destroy());
        response.shouldKeepAlive = false;
        return refuse(
          response,
          413,
          'payload_too_large',
          `A message may be at most ${SERVED_HTTP_MAX_BODY_BYTES} bytes; send a smaller one (large content belongs in a file the tools read).`,
        );
      }
      try {
        body = JSON.parse(text);
      } catch {
        return refuse(response, 400, 'invalid_json', 'The body is not JSON; send JSON-RPC messages.');
      }
    }
    const sessionHeader = request.headers['mcp-session-id'];
    const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader;
    const open = sessionId ? sessions.get(sessionId) : undefined;
    let transport = open?.transport;
    // A GET is the client's standing notification stream, not activity: only POSTs keep a session alive.
    if (open && request.method === 'POST') {
      open.active += 1;
      open.lastActive = Date.now();
      response.once('close', () => {
        open.active -= 1;
        open.lastActive = Date.now();
      });
    }
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
      if (sessions.size + starting >= maxSessions) {
        expireIdle();
        const seconds = Math.ceil(idleMs / 1000);
        return refuse(
          response,
          503,
          'too_many_sessions',
          `${maxSessions} MCP sessions are open, the most this server keeps. End one you no longer use (DELETE ${SERVED_HTTP_PATH} with its Mcp-Session-Id), or retry once an idle one expires (after ${seconds} s without requests).`,
          Math.min(seconds, 60),
        );
      }
      // Counted from the initialize request until its session is kept (or the request ends without one).
      starting += 1;
      let pending = true;
      const started = () => {
        if (pending) starting -= 1;
        pending = false;
      };
      response.once('close', started);
      const connection = createServedMcpServer(options);
      const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          started();
          sessions.set(id, { transport: created, closed: connection.closed, lastActive: Date.now(), active: 0 });
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
      clearInterval(sweeper);
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
