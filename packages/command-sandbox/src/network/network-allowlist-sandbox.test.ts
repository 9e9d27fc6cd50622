// Commands with a network allowlist, in real bubblewrap: the only way out is the proxy (through
// the bridge and the proxy variables); every server here listens on 127.0.0.0/8 of the host.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { testdir } from '@clawsmith/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand, type CommandSandboxOptions } from '../index.js';

let server: Server;
let port = 0;
const requested: string[] = [];
const undici = createRequire(import.meta.url).resolve('undici');

beforeAll(async () => {
  server = createServer((request, response) => {
    requested.push(`${request.headers.host} ${request.url}`);
    response.writeHead(200, { 'content-type': 'text/plain' }).end('hello through the proxy\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

// allowed.test and rebound.test resolve here by the proxy's resolver; 127.0.0.1 is allowed
// explicitly, 127.0.0.2 is not.
const options: CommandSandboxOptions = {
  capture: 'off',
  networkAllowlist: {
    domains: ['allowed.test', 'rebound.test'],
    allowance: { privateAddresses: ['127.0.0.1'] },
    resolveHost: async (host) => [{ address: host === 'rebound.test' ? '127.0.0.2' : '127.0.0.1', family: 4 }],
  },
};
const run = (command: string) => runCommand(options, { workspaceRoot: testdir({}), command, timeoutMs: 60_000 });

describe('runCommand with a network allowlist', () => {
  it('lets curl reach an allowed host through the proxy, plain HTTP and CONNECT', async () => {
    const result = await run(
      `curl -sS http://allowed.test:${port}/plain && curl -sS --proxytunnel http://allowed.test:${port}/tunnel`,
    );
    expect(result.output).toBe('hello through the proxy\nhello through the proxy\n');
    expect(result.exitCode).toBe(0);
    expect(requested).toEqual(expect.arrayContaining([`allowed.test:${port} /plain`, `allowed.test:${port} /tunnel`]));
    expect(result.refusedHosts).toEqual([]);
  });

  it("lets Node's fetch reach it with the proxy variables (undici's EnvHttpProxyAgent; Node 20 reads no proxy variables itself)", async () => {
    const script = `const { EnvHttpProxyAgent, fetch } = require(${JSON.stringify(undici)}); fetch('http://allowed.test:${port}/node', { dispatcher: new EnvHttpProxyAgent() }).then((r) => r.text()).then((t) => process.stdout.write('node: ' + t), (e) => { console.log('node failed', String(e.cause ?? e.message)); process.exit(3); });`;
    // undici's HTTP parser is WebAssembly, whose memory reservation (about 10 GiB of address space)
    // does not fit the default 4 GiB address-space limit: Node's own fetch fails there too.
    const result = await runCommand(
      { ...options, limits: { memoryBytes: 64 * 1024 ** 3 } },
      { workspaceRoot: testdir({}), command: `node -e ${JSON.stringify(script)}`, timeoutMs: 60_000 },
    );
    expect(result.output).toBe('node: hello through the proxy\n');
  });

  it('refuses another host, a raw IP and an allowed name that resolves to a refused address, and reports them', async () => {
    const result = await run(
      [
        `curl -s -o /dev/null -w '%{http_code}\\n' http://other.test:${port}/`,
        `curl -s -o /dev/null -w '%{http_code}\\n' http://127.0.0.1:${port}/`,
        `curl -s -o /dev/null -w '%{http_code}\\n' http://rebound.test:${port}/`,
        `curl -sS --proxytunnel https://other.test/ 2>&1 | head -c 200; echo`,
      ].join('; '),
    );
    expect(result.output.split('\n').slice(0, 3)).toEqual(['403', '403', '403']);
    expect(result.output).toMatch(/CONNECT.*403|403.*CONNECT|Received HTTP code 403/);
    expect(result.refusedHosts).toEqual([
      expect.objectContaining({ host: `other.test:${port}`, reason: 'not-allowed' }),
      expect.objectContaining({ host: `127.0.0.1:${port}`, reason: 'not-allowed' }),
      expect.objectContaining({ host: `rebound.test:${port}`, reason: 'address' }),
      expect.objectContaining({ host: 'other.test:443', reason: 'not-allowed' }),
    ]);
    expect(result.refusedHosts![2]!.detail).toContain('127.0.0.2 (rebound.test resolves to it) is a loopback address');
    expect(requested.some((line) => line.includes('other.test') || line.includes('rebound.test'))).toBe(false);
  });

  it('gives a tool that ignores the proxy no network at all, and no way to the proxy socket', async () => {
    const result = await run(
      [
        `curl -sS --noproxy '*' --max-time 5 http://127.0.0.1:${port}/direct 2>&1 | head -c 120; echo " curl exit \${PIPESTATUS[0]}"`,
        `node -e "require('net').connect(${port}, '127.0.0.1').on('connect', () => console.log('connected')).on('error', (e) => console.log('node:', e.code))"`,
        `socat - UNIX-CONNECT:/run/clawsmith-network/proxy.sock 2>&1 </dev/null | head -c 200; echo`,
        // Nothing of the bridge stays inside (the relay holds the proxy port's socket from outside),
        // and the command holds no socket or pidfd of it: only the command's own processes are left.
        // (Descriptors 1 and 2 are the output's socket pair from Node.)
        `cat /proc/[0-9]*/comm | grep -cx perl`,
        `ls -l /proc/$$/fd | grep -E 'socket:|pidfd' | grep -cvE ' [12] -> '`,
      ].join('; '),
    );
    expect(result.output).toMatch(/Connection refused|Couldn't connect/);
    expect(result.output).toContain('curl exit 7');
    expect(result.output).toContain('node: ECONNREFUSED');
    expect(result.output).toContain('Operation not permitted');
    expect(result.output.trim().split('\n').slice(-2)).toEqual(['0', '0']);
    expect(requested.some((line) => line.includes('/direct'))).toBe(false);
  });

  it('gives the command its own LC_ALL (the bridge itself starts in the C locale)', async () => {
    const command = 'echo "LC_ALL=${LC_ALL-unset}"';
    const withOwn = await runCommand(
      { ...options, environmentSource: { PATH: process.env.PATH, LC_ALL: 'C.UTF-8' } },
      { workspaceRoot: testdir({}), command, timeoutMs: 60_000 },
    );
    const withNone = await runCommand(
      { ...options, environmentSource: { PATH: process.env.PATH } },
      { workspaceRoot: testdir({}), command, timeoutMs: 60_000 },
    );
    expect([withOwn.output, withNone.output]).toEqual(['LC_ALL=C.UTF-8\n', 'LC_ALL=unset\n']);
  });

  it('names the allowlist and the refused hosts in the tool result', async () => {
    const { commandToolResult } = await import('../run-command-tool.js');
    const result = commandToolResult(await run(`curl -s -o /dev/null http://denied.test:${port}/`));
    expect(result.content).toContain('network only to allowed.test, rebound.test (through the proxy)');
    expect(result.content).toContain(`The network proxy refused 1 host:\n- denied.test:${port}: denied.test is not in`);
    expect(result.display?.fields).toEqual(
      expect.arrayContaining([{ label: 'network refused', value: `denied.test:${port}` }]),
    );
  });
});
