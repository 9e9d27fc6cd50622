// The relay outside the sandbox carries the bytes (spliced in the kernel): whole bodies both ways,
// a new decision for every plain request, and one shared proxy that keeps each command's refusals
// apart. Real bubblewrap, real curl; every server listens on 127.0.0.1.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { testdir } from '@clawsmith/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand, type CommandSandboxOptions } from '../index.js';

const BODY = Buffer.alloc(8 * 1024 * 1024);
for (let index = 0; index < BODY.length; index += 1) BODY[index] = (index * 7919) % 251;
const BODY_SHA256 = createHash('sha256').update(BODY).digest('hex');

let server: Server;
let port = 0;
const connectionHeaders: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    connectionHeaders.push(`${request.url} ${request.headers.connection ?? ''}`);
    if (request.url === '/upload') {
      const hash = createHash('sha256');
      request.on('data', (chunk: Buffer) => hash.update(chunk));
      request.on('end', () => response.end(`${hash.digest('hex')}\n`));
      return;
    }
    if (request.url === '/big') {
      response.writeHead(200, { 'content-length': BODY.length }).end(BODY);
      return;
    }
    response.end(`${request.url}\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const options: CommandSandboxOptions = {
  capture: 'off',
  networkAllowlist: {
    domains: ['allowed.test'],
    allowance: { privateAddresses: ['127.0.0.1'] },
    resolveHost: async () => [{ address: '127.0.0.1', family: 4 }],
  },
};
/** The children of process `pid` (empty once it has none, or when it is gone). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The relays this test process started (each a Perl child running network-relay.pl). */
function relays(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return parent === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('# The network relay');
      } catch {
        return false;
      }
    });
}

const run = (command: string) => runCommand(options, { workspaceRoot: testdir({}), command, timeoutMs: 60_000 });

describe('runCommand with a network allowlist, through the relay', () => {
  it('carries an 8 MiB body whole, plain and through CONNECT', async () => {
    const result = await run(
      [
        `curl -sS http://allowed.test:${port}/big | sha256sum`,
        `curl -sS --proxytunnel http://allowed.test:${port}/big | sha256sum`,
      ].join('; '),
    );
    expect(result.output).toBe(`${BODY_SHA256}  -\n${BODY_SHA256}  -\n`);
  });

  it('carries an upload whole, plain and through CONNECT', async () => {
    const result = await run(
      [
        'head -c 3000000 /dev/urandom > upload',
        'sha256sum < upload',
        `curl -sS --data-binary @upload http://allowed.test:${port}/upload`,
        `curl -sS --proxytunnel --data-binary @upload http://allowed.test:${port}/upload`,
      ].join('; '),
    );
    const [sent, plain, tunnel] = result.output.trim().split('\n');
    expect(sent).toMatch(/^[0-9a-f]{64} {2}-$/);
    expect([plain, tunnel]).toEqual([sent!.slice(0, 64), sent!.slice(0, 64)]);
  });

  it('asks again for every plain request: the second URL of one curl call is refused and reported', async () => {
    connectionHeaders.length = 0;
    const result = await run(
      `curl -sS -w ' %{http_code}\\n' http://allowed.test:${port}/first http://denied.test:${port}/second`,
    );
    expect(result.output).toContain('/first\n 200\n');
    expect(result.output).toMatch(/denied\.test is not in the command's network allowlist.*\n 403\n/);
    expect(result.refusedHosts).toEqual([
      expect.objectContaining({ host: `denied.test:${port}`, reason: 'not-allowed' }),
    ]);
    expect(connectionHeaders).toEqual(['/first close']);
  });

  it('answers a request it cannot route with 400 and what it takes', async () => {
    const result = await run(`curl -sS --noproxy '*' http://127.0.0.1:3128/origin-form`);
    expect(result.output).toContain(
      'This proxy takes CONNECT host:port, and plain HTTP requests with an absolute http:// URL.',
    );
    expect(result.refusedHosts).toEqual([]);
  });

  it('keeps the refusals of two commands sharing the proxy apart', async () => {
    const [first, second] = await Promise.all([
      run(`curl -s -o /dev/null http://one.test:${port}/`),
      run(`curl -s -o /dev/null http://two.test:${port}/`),
    ]);
    expect(first.refusedHosts?.map((host) => host.host)).toEqual([`one.test:${port}`]);
    expect(second.refusedHosts?.map((host) => host.host)).toEqual([`two.test:${port}`]);
  });

  it("lets go of each command's proxy port when the command ends (its accepting process ends with it)", async () => {
    await Promise.all([run('true'), run(`curl -s -o /dev/null http://allowed.test:${port}/`), run('true')]);
    const [relay] = relays();
    expect(relay).toBeDefined();
    // The relay's process for a command ends when the command's pidfd says it ended; it is not
    // awaited by runCommand, so this waits for that real condition, within a bound.
    const deadline = Date.now() + 20_000;
    while (childrenOf(relay!).length > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(childrenOf(relay!)).toEqual([]);
  });
});
