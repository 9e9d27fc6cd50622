import { promises as dns } from 'node:dns';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isIPv4 } from 'node:net';
import type { Duplex } from 'node:stream';
import { checkHostAddresses, isNetworkAddress, matchesDomainPattern, normalizeHost } from '@clawsmith/tool-protocol';
import type { CommandNetworkAllowlist, ProxyHostResolver, RefusedHost } from './network-allowlist.js';

const systemResolver: ProxyHostResolver = (host) => dns.lookup(host, { all: true, verbatim: true });

/** The header naming the command a relay's question is for. */
export const COMMAND_HEADER = 'x-clawsmith-command';

/** Splits `host:port`, `[v6]:port` or a bare host. */
function hostAndPort(authority: string, defaultPort: number): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(authority);
  if (!match) return undefined;
  const port = match[2] === undefined ? defaultPort : Number(match[2]);
  return port > 0 && port < 65_536 ? { host: normalizeHost(match[1]!), port } : undefined;
}

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

/**
 * The proxy's judgement, as an HTTP server the relay asks (on a private Unix socket): a
 * `CONNECT host:port` with the command's token is answered `204` with the checked address
 * (`x-clawsmith-address: <4|6> <hex> <port>`), or `403` with the reason, which is recorded in that
 * command's refused hosts. A host must match a domain pattern, then every address it resolves to
 * must pass the same checks as `web_fetch`; the relay connects to that address and no other.
 * A token of no running command is refused.
 */
export function createDecisionServer(
  allowlist: CommandNetworkAllowlist,
  refusedOf: (token: string) => Map<string, RefusedHost> | undefined,
): Server {
  const resolveHost = allowlist.resolveHost ?? systemResolver;

  async function decide(refused: Map<string, RefusedHost>, host: string, port: number): Promise<string> {
    const asked = `${host}:${port}`;
    const refuse = (refusal: RefusedHost) => {
      if (!refused.has(refusal.host)) refused.set(refusal.host, refusal);
      return `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${refusal.detail}\n`;
    };
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
    return `HTTP/1.1 204 Decided\r\nx-clawsmith-address: ${relayAddress(verdict.address)} ${port}\r\n\r\n`;
  }

  const server = createServer();
  server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(400).end();
  });
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    const refused = refusedOf(String(request.headers[COMMAND_HEADER] ?? ''));
    const target = hostAndPort(request.url ?? '', 443);
    if (!refused || !target) {
      socket.end(
        `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${refused ? 'The proxy takes CONNECT host:port.' : 'The command this connection belongs to has ended.'}\n`,
      );
      return;
    }
    decide(refused, target.host, target.port).then(
      (answer) => socket.end(answer),
      () => socket.destroy(),
    );
  });
  return server;
}
