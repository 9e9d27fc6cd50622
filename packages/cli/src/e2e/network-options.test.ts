// The network flags of `run`: web_fetch by domain rule, and commands behind the domain allowlist
// whose refused hosts show in `run --json`. Servers listen on 127.0.0.1 only.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { testdir } from '@clawsmith/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonLines, runCli, writeScript } from './cli-harness.js';

let server: Server;
let origin = '';
beforeAll(async () => {
  server = createServer((_request, response) =>
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<html><head><title>Local docs</title></head><body><p>Local docs page</p></body></html>'),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function completedResults(
  stdout: string,
): Record<
  string,
  { status: string; code?: string; content?: string; display?: { fields?: { label: string; value: string }[] } }
> {
  return Object.fromEntries(
    parseJsonLines(stdout)
      .filter((event) => event.type === 'tool.completed')
      .map((event) => [event.toolCallId, { ...(event.result as object), content: String(event.output ?? '') }]),
  ) as never;
}

describe('clawsmith run network flags', () => {
  it('fetches an allowed private address without asking when its domain is allowed, and refuses a denied domain', async () => {
    const home = testdir();
    const script = writeScript(home, [
      {
        toolCalls: [
          { id: 'fetch_ok', name: 'web_fetch', arguments: { url: `${origin}/docs` } },
          { id: 'fetch_denied', name: 'web_fetch', arguments: { url: 'http://blocked.test/' } },
        ],
      },
      { text: 'Done.' },
    ]);
    const run = await runCli(
      [
        'run',
        '--json',
        '--script',
        script,
        '--workspace',
        testdir(),
        '--web-fetch-allow',
        '127.0.0.1',
        '--web-fetch-deny',
        '*.test,blocked.test',
        '--allow-private-network',
        '127.0.0.1',
        'Read the docs',
      ],
      { home },
    );
    expect(run.stderr).toBe('');
    const results = completedResults(run.stdout);
    expect(results.fetch_ok).toMatchObject({ status: 'success' });
    expect(results.fetch_ok!.content).toContain('Local docs page');
    expect(results.fetch_denied).toMatchObject({ status: 'denied', code: 'permission_denied' });
  });

  it('lists the hosts the command proxy refused in the tool result of run --json', async () => {
    const home = testdir();
    const script = writeScript(home, [
      {
        toolCalls: [
          {
            id: 'download',
            name: 'run_command',
            arguments: {
              command: `for url in http://refused.test/ ${origin}/; do curl -s -o /dev/null -w '%{http_code} ' $url; done`,
            },
          },
        ],
      },
      { text: 'Done.' },
    ]);
    const run = await runCli(
      [
        'run',
        '--json',
        '--script',
        script,
        '--workspace',
        testdir(),
        '--permission-mode',
        'full-auto',
        '--network-allow',
        'registry.npmjs.org,*.example.test',
        'Download',
      ],
      { home },
    );
    const result = completedResults(run.stdout).download!;
    expect(result.content).toContain('network only to registry.npmjs.org, *.example.test (through the proxy)');
    expect(result.content).toContain('403 403 ');
    expect(result.content).toContain('The network proxy refused 2 hosts:\n- refused.test:80: refused.test is not in');
    expect(result.display?.fields).toEqual(
      expect.arrayContaining([{ label: 'network refused', value: `refused.test:80, ${origin.slice(7)}` }]),
    );
  });

  it('refuses a domain written as a URL with a usage error', async () => {
    const home = testdir();
    const run = await runCli(
      ['run', '--script', writeScript(home, [{ text: 'x' }]), '--network-allow', 'https://registry.npmjs.org/', 'x'],
      { home },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('[invalid_network_option]');
  });
});
