import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli, writeScript } from './cli-harness.js';

const require = createRequire(import.meta.url);
const everything = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);
const filesystem = join(
  dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json')),
  'dist/index.js',
);

function writeConfig(file: string, mcpServers: Record<string, unknown>): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ mcpServers }));
}

type Event = Record<string, unknown>;
const completed = (events: Event[], id: string) =>
  events.find((event) => event.type === 'tool.completed' && event.toolCallId === id);

const findActivateCall = [
  { toolCalls: [{ id: 'call_search', name: 'search_tools', arguments: { query: 'echo message' } }] },
  { toolCalls: [{ id: 'call_echo', name: 'mcp__everything__echo', arguments: { message: 'from the script' } }] },
  { text: 'Echoed.' },
];

// Each test starts real servers and the built binary; a loaded shared machine needs the room.
describe('clawsmith run with MCP servers', { timeout: 120_000 }, () => {
  it('finds, activates and calls a real server’s tool; the next request lists its schema', async () => {
    const home = testdir();
    const workspace = testdir();
    writeConfig(join(home, 'mcp.json'), { everything: { command: process.execPath, args: [everything, 'stdio'] } });
    const script = writeScript(home, findActivateCall);
    const args = [
      'run',
      '--json',
      '--script',
      script,
      '--workspace',
      workspace,
      '--permission-mode',
      'full-auto',
      'echo',
    ];
    const run = await runCli(args, { home });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const events = parseJsonLines(run.stdout);
    expect(completed(events, 'call_search')).toMatchObject({ status: 'success' });
    const requests = events.filter((event) => event.type === 'request.started');
    expect(requests[0]?.toolNames).not.toContain('mcp__everything__echo');
    expect(requests[1]?.toolNames).toContain('mcp__everything__echo');
    expect(requests[1]?.composition).toMatchObject({
      activatedTools: expect.arrayContaining(['mcp__everything__echo']),
    });
    const started = events.find((event) => event.type === 'tool.started' && event.toolCallId === 'call_echo');
    expect(started).toMatchObject({ risk: 'execute', toolSchemaSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(completed(events, 'call_echo')).toMatchObject({ status: 'success' });
    expect(JSON.stringify(completed(events, 'call_echo'))).toContain('Echo: from the script');
  });

  it('asks before an MCP tool runs in default mode, and denies it without a person to ask', async () => {
    const home = testdir();
    writeConfig(join(home, 'mcp.json'), {
      everything: { command: process.execPath, args: [everything, 'stdio'], trustAnnotations: false },
    });
    const script = writeScript(home, findActivateCall);
    const run = await runCli(['run', '--json', '--script', script, '--workspace', testdir(), 'echo'], { home });
    const events = parseJsonLines(run.stdout);
    // readOnlyHint is claimed by the server, but it is not trusted: the floor stays execute.
    const decisions = events.filter((event) => event.type === 'tool.decision' && event.toolCallId === 'call_echo');
    expect(decisions.map((event) => [event.stage, event.action])).toContainEqual(['permission', 'ask']);
    expect(completed(events, 'call_echo')).toMatchObject({ status: 'denied', result: { code: 'permission_denied' } });
  });

  it('never starts an untrusted project server and says how to trust it', async () => {
    const home = testdir();
    const marker = join(home, 'spawned');
    const workspace = testdir();
    writeConfig(join(workspace, '.mcp.json'), {
      repo: { command: process.execPath, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`] },
    });
    const script = writeScript(home, [
      { toolCalls: [{ id: 'call_search', name: 'search_tools', arguments: { query: 'repo' } }] },
      { text: 'Nothing.' },
    ]);
    const run = await runCli(['run', '--json', '--script', script, '--workspace', workspace, 'go'], { home });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /MCP server repo .* is not started: a project server is never started before you trust it/,
    );
    expect(run.stderr).toContain('clawsmith mcp trust repo');
    expect(existsSync(marker)).toBe(false);
  });

  it('stores a 10 MB result from the filesystem server as an artifact', { timeout: 300_000 }, async () => {
    const home = testdir();
    const workspace = testdir({ 'big.txt': `${'x'.repeat(99)}\n`.repeat(100_000) });
    // 10 MB through stdio JSON-RPC takes the real server and SDK 40-60 s on a loaded two-core
    // machine, near the 60 s default call timeout: this test is about the artifact, not the timeout.
    writeConfig(join(home, 'mcp.json'), {
      files: { command: process.execPath, args: [filesystem, workspace], timeoutMs: 240_000 },
    });
    const script = writeScript(home, [
      {
        toolCalls: [
          { id: 'call_select', name: 'search_tools', arguments: { query: 'select:mcp__files__read_text_file' } },
        ],
      },
      {
        toolCalls: [
          { id: 'call_read', name: 'mcp__files__read_text_file', arguments: { path: join(workspace, 'big.txt') } },
        ],
      },
      { text: 'Read.' },
    ]);
    const args = [
      'run',
      '--json',
      '--script',
      script,
      '--workspace',
      workspace,
      '--permission-mode',
      'full-auto',
      'read',
    ];
    const run = await runCli(args, { home });
    expect(run.code).toBe(0);
    const result = completed(parseJsonLines(run.stdout), 'call_read');
    expect(result).toMatchObject({ status: 'success', result: { artifact: { byteLength: 10_000_000 } } });
  });
});

describe('clawsmith mcp list|trust|untrust', { timeout: 120_000 }, () => {
  it(
    'lists servers without printing secrets, trusts an exact entry, and untrusts it',
    { timeout: 90_000 },
    async () => {
      const home = testdir();
      const workspace = testdir();
      writeConfig(join(workspace, '.clawsmith/mcp.json'), {
        everything: {
          command: process.execPath,
          args: [everything, 'stdio'],
          env: { API_TOKEN: '${CLAWSMITH_TEST_SECRET}', LITERAL: 'literal-secret-value' },
        },
      });
      const env = { CLAWSMITH_TEST_SECRET: 'expanded-secret-value' };
      const before = await runCli(['mcp', 'list', '--workspace', workspace], { home, env });
      expect(before.code).toBe(0);
      expect(before.stdout).toMatch(/^everything {2}project {2}stdio {2}untrusted {2}untrusted/);
      expect(before.stdout).toContain('(env: API_TOKEN, LITERAL)');

      const trust = await runCli(['mcp', 'trust', 'everything', '--workspace', workspace], { home, env });
      expect(trust.code).toBe(0);
      expect(trust.stdout).toMatch(/Trusted everything .*\nIt offers \d+ tools\./);

      const after = await runCli(['mcp', 'list', '--json', '--workspace', workspace], { home, env });
      expect(parseJsonLines(after.stdout)[0]).toMatchObject({
        name: 'everything',
        trust: 'trusted',
        availability: 'offered',
      });

      for (const output of [before, trust, after]) {
        expect(output.stdout + output.stderr).not.toContain('expanded-secret-value');
        expect(output.stdout + output.stderr).not.toContain('literal-secret-value');
      }

      const untrust = await runCli(['mcp', 'untrust', 'everything', '--workspace', workspace], { home });
      expect(untrust.stdout).toContain('everything is no longer trusted');
      const unknown = await runCli(['mcp', 'trust', 'nothing', '--workspace', workspace], { home });
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/No MCP server is named "nothing".*\[mcp_server_not_found\]/);
    },
  );
});
