import { promises as dns } from 'node:dns';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { checkHostAddresses, isNetworkAddress, matchesDomainPattern, normalizeHost } from '@clawsmith/tool-protocol';
import type { CommandNetworkAllowlist, ProxyHostResolver, RefusedHost } from './network-allowlist.js';

/** A running proxy for one command, listening on a Unix socket in a private folder. */
export interface NetworkProxy {
  /** The folder holding the socket (mode 0700); bound into the sandbox. */
  readonly folder: string;
  /** The socket's file name inside {@link folder}. */
  readonly socketName: string;
  /** The hosts refused so far, each once, in order. */
  refusedHosts(): RefusedHost[];
  /** Stops listening, ends open connections, removes the folder. */
  close(): Promise<void>;
}

const systemResolver: ProxyHostResolver = (host) => dns.lookup(host, { all: true, verbatim: true });

/** Headers that belong to one hop (RFC 9110 section 7.6.1), never forwarded. */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

type Decision = { allowed: true; address: string } | { allowed: false; refusal: RefusedHost };

/** Splits `host:port`, `[v6]:port` or a bare host. */
function hostAndPort(authority: string, defaultPort: number): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(authority);
  if (!match) return undefined;
  const port = match[2] === undefined ? defaultPort : Number(match[2]);
  return port > 0 && port < 65_536 ? { host: normalizeHost(match[1]!), port } : undefined;
}

/**
 * Starts the proxy a command with a domain allowlist reaches through its bridge. Each request's
 * host must match a domain pattern, then every address it resolves to must pass the same checks
 * as `web_fetch`; the connection goes to the checked address only.
 */
export async function startNetworkProxy(allowlist: CommandNetworkAllowlist): Promise<NetworkProxy> {
  const folder = mkdtempSync(join(tmpdir(), 'clawsmith-network-'));
  const socketName = 'proxy.sock';
  const refused = new Map<string, RefusedHost>();
  const sockets = new Set<Socket | Duplex>();
  const resolveHost = allowlist.resolveHost ?? systemResolver;

  const refuse = (refusal: RefusedHost): Decision => {
    if (!refused.has(refusal.host)) refused.set(refusal.host, refusal);
    return { allowed: false, refusal };
  };

  async function decide(host: string, port: number): Promise<Decision> {
    const asked = `${host}:${port}`;
    if (!allowlist.domains.some((pattern) => matchesDomainPattern(host, pattern)))
      return refuse({
        host: asked,
        reason: 'not-allowed',
        detail: `${host} is not in the command's network allowlist (${allowlist.domains.join(', ')}).`,
      });
    let addresses: string[];
    try {
      addresses = isNetworkAddress(host) ? [host] : (await resolveHost(host)).map((entry) => entry.address);
    } catch {
      return refuse({ host: asked, reason: 'unresolved', detail: `${host} could not be resolved.` });
    }
    const verdict = checkHostAddresses(host, addresses, allowlist.allowance);
    if (!verdict.allowed) return refuse({ host: asked, reason: 'address', detail: verdict.reason });
    return { allowed: true, address: verdict.address };
  }

  const server = createServer();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  server.on('connect', (request: IncomingMessage, client: Duplex, head: Buffer) => {
    sockets.add(client);
    client.on('error', () => client.destroy());
    const target = hostAndPort(request.url ?? '', 443);
    if (!target) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    void decide(target.host, target.port).then((decision) => {
      if (!decision.allowed) {
        client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\n${decision.refusal.detail}\n`);
        return;
      }
      const upstream = connect({ host: decision.address, port: target.port });
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.once('connect', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => {
        if (upstream.connecting) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
        else client.destroy();
      });
      client.on('close', () => upstream.destroy());
    });
  });

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    let url: URL;
    try {
      url = new URL(request.url ?? '');
    } catch {
      response
        .writeHead(400, { 'content-type': 'text/plain' })
        .end('Only absolute http:// URLs go through this proxy.\n');
      return;
    }
    if (url.protocol !== 'http:') {
      response.writeHead(400, { 'content-type': 'text/plain' }).end('Use CONNECT for https.\n');
      return;
    }
    const host = normalizeHost(url.hostname);
    const port = url.port === '' ? 80 : Number(url.port);
    void decide(host, port).then((decision) => {
      if (!decision.allowed) {
        response.writeHead(403, { 'content-type': 'text/plain' }).end(`${decision.refusal.detail}\n`);
        return;
      }
      const headers: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(request.headers))
        if (value !== undefined && !HOP_HEADERS.has(name)) headers[name] = value;
      headers.host = url.host;
      const upstream = httpRequest({
        host: decision.address,
        port,
        method: request.method,
        path: `${url.pathname}${url.search}`,
        headers,
        setHost: false,
        agent: false,
      });
      upstream.on('response', (answer) => {
        const forwarded: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(answer.headers))
          if (value !== undefined && !HOP_HEADERS.has(name)) forwarded[name] = value;
        response.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwarded);
        answer.pipe(response);
      });
      upstream.on('error', () => {
        if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
        response.end();
      });
      request.pipe(upstream);
    });
  });

  const path = join(folder, socketName);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => resolve());
    });
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  return {
    folder,
    socketName,
    refusedHosts: () => [...refused.values()],
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
