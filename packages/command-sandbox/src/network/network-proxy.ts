import { promises as dns } from 'node:dns';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, isIPv4, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { checkHostAddresses, isNetworkAddress, matchesDomainPattern, normalizeHost } from '@clawsmith/tool-protocol';
import type { CommandNetworkAllowlist, ProxyHostResolver, RefusedHost } from './network-allowlist.js';
import type { NetworkSystemCalls } from './network-bridge.js';
import { startNetworkRelay, type NetworkRelay } from './network-relay.js';

/**
 * A running proxy for one command: the relay listens on a Unix socket in a folder bound into the
 * sandbox; the proxy's own sockets (decisions, plain HTTP) are beside that folder, out of its sight.
 */
export interface NetworkProxy {
  /** The folder holding the relay's socket (in a private folder, mode 0700); bound into the sandbox. */
  readonly sandboxFolder: string;
  /** The relay socket's file name inside {@link sandboxFolder}. */
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

/** An address as the relay packs it into a socket address: `4` or `6` and its bytes in hex. */
export function relayAddress(address: string): string {
  if (isIPv4(address))
    return `4 ${address
      .split('.')
      .map((part) => Number(part).toString(16).padStart(2, '0'))
      .join('')}`;
  let text = address.replace(/%.*$/, '');
  const embedded = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (embedded) {
    const [a, b, c, d] = embedded.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, embedded.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [before, after] = text.includes('::') ? text.split('::') : [text, undefined];
  const head = before ? before.split(':') : [];
  const tail = after ? after.split(':') : [];
  const groups =
    after === undefined ? head : [...head, ...Array<string>(8 - head.length - tail.length).fill('0'), ...tail];
  return `6 ${groups.map((group) => group.padStart(4, '0')).join('')}`;
}

/** Splits `host:port`, `[v6]:port` or a bare host. */
function hostAndPort(authority: string, defaultPort: number): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(authority);
  if (!match) return undefined;
  const port = match[2] === undefined ? defaultPort : Number(match[2]);
  return port > 0 && port < 65_536 ? { host: normalizeHost(match[1]!), port } : undefined;
}

/** How the proxy starts its relay. */
export interface NetworkRelayLaunch {
  /** The trusted Perl. */
  readonly perl: string;
  /** The system call numbers here. */
  readonly systemCalls: NetworkSystemCalls;
}

/**
 * Starts the proxy a command with a domain allowlist reaches through its bridge, and its relay.
 * Each request's host must match a domain pattern, then every address it resolves to must pass
 * the same checks as `web_fetch`; the connection goes to the checked address only (the relay
 * connects to the address the proxy's decision names, and to nothing else).
 */
export async function startNetworkProxy(
  allowlist: CommandNetworkAllowlist,
  relayLaunch: NetworkRelayLaunch,
): Promise<NetworkProxy> {
  const folder = mkdtempSync(join(tmpdir(), 'clawsmith-network-'));
  const sandboxFolder = join(folder, 'sandbox');
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

  // The relay's question for a CONNECT: the answer names the checked address, or refuses.
  const decisions = createServer();
  decisions.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  decisions.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(400).end();
  });
  decisions.on('connect', (request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    const target = hostAndPort(request.url ?? '', 443);
    if (!target) {
      socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    void decide(target.host, target.port).then((decision) => {
      socket.end(
        decision.allowed
          ? `HTTP/1.1 204 Decided\r\nx-clawsmith-address: ${relayAddress(decision.address)} ${target.port}\r\n\r\n`
          : `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\n${decision.refusal.detail}\n`,
      );
    });
  });

  const listen = (on: typeof server, path: string) =>
    new Promise<void>((resolve, reject) => {
      on.once('error', reject);
      on.listen(path, () => resolve());
    });
  const httpPath = join(folder, 'http.sock');
  const decisionPath = join(folder, 'decision.sock');
  let relay: NetworkRelay | undefined;
  const stop = async () => {
    relay?.stop();
    for (const socket of sockets) socket.destroy();
    await Promise.all(
      [server, decisions].map(
        (each) => new Promise<void>((resolve) => (each.listening ? each.close(() => resolve()) : resolve())),
      ),
    );
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    mkdirSync(sandboxFolder, { mode: 0o700 });
    await Promise.all([listen(server, httpPath), listen(decisions, decisionPath)]);
    relay = await startNetworkRelay({
      ...relayLaunch,
      listenPath: join(sandboxFolder, socketName),
      decisionPath,
      httpPath,
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    sandboxFolder,
    socketName,
    refusedHosts: () => [...refused.values()],
    close: stop,
  };
}
