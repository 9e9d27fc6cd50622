import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { testdir } from '@clawsmith/test-utils';
import type { AnyToolDefinition, ToolExecutionContext, ToolExecutionResult } from '@clawsmith/tool-protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import { freePort, servers, startedPids, writeMcpConfig } from './__fixtures__/mcp-servers.js';
import { openMcpTools, type McpTools } from './mcp-tools.js';

async function open(options: Parameters<typeof openMcpTools>[0]): Promise<McpTools> {
  const tools = await openMcpTools(options);
  onTestFinished(() => tools.close());
  return tools;
}

function named(tools: McpTools, name: string): AnyToolDefinition {
  const tool = tools.tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
}

function context(signal = new AbortController().signal): ToolExecutionContext {
  return { authorized: true, workspaceRoot: '/', sessionId: 's', turnId: 't', toolCallId: 'c', signal };
}

async function run(tool: AnyToolDefinition, input: unknown, signal?: AbortSignal): Promise<ToolExecutionResult> {
  return (await tool.execute(tool.inputSchema.parse(input), context(signal))) as ToolExecutionResult;
}

// Generous: on a loaded shared machine a Node server can take many seconds to listen.
async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 1_000; attempt += 1) {
    if (check()) return;
    await sleep(25);
  }
  throw new Error(`timed out waiting for ${what}`);
}

function fixtureEntry(home: string, extra: Record<string, unknown> = {}) {
  return {
    command: process.execPath,
    args: [servers.fixture],
    env: { STARTED_MARKER: join(home, 'started'), CANCEL_MARKER: join(home, 'cancelled') },
    ...extra,
  };
}

describe('calls to a server that hangs or crashes', () => {
  it('times out, sends MCP cancellation to the server, and keeps the server for the next call', async () => {
    const home = testdir();
    writeMcpConfig(join(home, 'mcp.json'), { fixture: fixtureEntry(home, { timeoutMs: 300 }) });
    const tools = await open({ homeDir: home });
    const result = await run(named(tools, 'mcp__fixture__slow'), { ms: 20_000 });
    expect(result).toMatchObject({ status: 'error', code: 'mcp_timeout', retryable: false });
    expect(result.content).toMatch(/did not answer slow within 300 ms; the call was cancelled on the server/);
    await waitFor(() => existsSync(join(home, 'cancelled')), 'the server to see the cancellation');
    expect(await run(named(tools, 'mcp__fixture__slow'), { ms: 1 })).toMatchObject({ status: 'success' });
    expect(startedPids(join(home, 'started'))).toHaveLength(1);
  });

  it('cancels the call on the server when the turn is aborted', async () => {
    const home = testdir();
    writeMcpConfig(join(home, 'mcp.json'), { fixture: fixtureEntry(home) });
    const tools = await open({ homeDir: home });
    const controller = new AbortController();
    const pending = run(named(tools, 'mcp__fixture__slow'), { ms: 20_000 }, controller.signal);
    await sleep(300);
    controller.abort();
    expect(await pending).toMatchObject({ status: 'cancelled', code: 'cancelled' });
    await waitFor(() => existsSync(join(home, 'cancelled')), 'the server to see the cancellation');
  });

  it('answers mcp_server_unavailable (retryable) when the server dies mid-call, backs off, then restarts it', async () => {
    const home = testdir();
    writeMcpConfig(join(home, 'mcp.json'), { fixture: fixtureEntry(home) });
    const tools = await open({ homeDir: home });
    const crashed = await run(named(tools, 'mcp__fixture__crash'), {});
    expect(crashed).toMatchObject({ status: 'error', code: 'mcp_server_unavailable', retryable: true });
    expect(crashed.content).toMatch(/ended during the call to crash; the outcome is unknown/);
    const during = await run(named(tools, 'mcp__fixture__slow'), { ms: 1 });
    expect(during).toMatchObject({ code: 'mcp_server_unavailable', retryable: true });
    expect(during.content).toMatch(/restarts in 1 s \(backoff after 1 crash in a row\)/);
    await sleep(600);
    expect(await run(named(tools, 'mcp__fixture__slow'), { ms: 1 })).toMatchObject({ status: 'success' });
    // The process that listed the tools served the crashing call; then one restart.
    expect(startedPids(join(home, 'started'))).toHaveLength(2);
  });

  it('ends its stdio servers when closed', async () => {
    const home = testdir();
    writeMcpConfig(join(home, 'mcp.json'), { fixture: fixtureEntry(home) });
    const tools = await openMcpTools({ homeDir: home });
    await run(named(tools, 'mcp__fixture__slow'), { ms: 1 });
    const pid = tools.connections.get('fixture')?.pid;
    expect(pid).toBeGreaterThan(0);
    await tools.close();
    await waitFor(() => {
      try {
        process.kill(pid as number, 0);
        return false;
      } catch {
        return true;
      }
    }, 'the server to end');
  });
});

describe('the filesystem reference server', () => {
  it('reads inside its allowed folder and reports its own refusal outside as mcp_tool_error', async () => {
    const home = testdir();
    const allowed = testdir({ 'notes.txt': 'hello from the workspace' });
    writeMcpConfig(join(home, 'mcp.json'), {
      files: { command: process.execPath, args: [servers.filesystem, allowed] },
    });
    const tools = await open({ homeDir: home });
    const read = named(tools, 'mcp__files__read_text_file');
    expect(await run(read, { path: join(allowed, 'notes.txt') })).toMatchObject({
      status: 'success',
      content: expect.stringContaining('hello from the workspace'),
    });
    const outside = await run(read, { path: '/etc/hostname' });
    expect(outside).toMatchObject({ status: 'error', code: 'mcp_tool_error' });
    expect(outside.content).toMatch(/Access denied|outside allowed/i);
  });
});

async function serveOverHttp(mode: 'streamableHttp' | 'sse'): Promise<number> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [servers.everything, mode], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  onTestFinished(() => void child.kill('SIGKILL'));
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  await waitFor(() => /listening|running/i.test(log), `the ${mode} server to listen`);
  return port;
}

describe('the everything reference server over HTTP', () => {
  it('speaks Streamable HTTP, with headers expanded from the environment', async () => {
    const port = await serveOverHttp('streamableHttp');
    const home = testdir();
    writeMcpConfig(join(home, 'mcp.json'), {
      remote: { url: `http://127.0.0.1:${port}/mcp`, headers: { Authorization: 'Bearer ${CLAWSMITH_TEST_TOKEN}' } },
    });
    const tools = await open({ homeDir: home, environment: { CLAWSMITH_TEST_TOKEN: 'token' } });
    expect(tools.servers()[0]).toMatchObject({ transport: 'http', availability: 'offered' });
    expect(await run(named(tools, 'mcp__remote__echo'), { message: 'over http' })).toMatchObject({
      status: 'success',
      content: 'Echo: over http',
    });
  });

  it('falls back to SSE when the URL does not speak Streamable HTTP', async () => {
    const port = await serveOverHttp('sse');
    const home = testdir();
    writeMcpConfig(join(home, 'mcp.json'), { old: { url: `http://127.0.0.1:${port}/sse` } });
    const notices: string[] = [];
    const tools = await open({ homeDir: home, onNotice: (notice) => notices.push(notice) });
    expect(await run(named(tools, 'mcp__old__echo'), { message: 'over sse' })).toMatchObject({
      status: 'success',
      content: 'Echo: over sse',
    });
    expect(notices.join('\n')).toMatch(/does not speak Streamable HTTP \(4\d\d\); using SSE/);
  });

  it('answers mcp_server_unavailable when nothing listens, without a stored tool list to offer', async () => {
    const port = await freePort();
    const home = testdir();
    writeMcpConfig(join(home, 'mcp.json'), { gone: { url: `http://127.0.0.1:${port}/mcp` } });
    const tools = await open({ homeDir: home });
    expect(tools.tools).toEqual([]);
    expect(tools.servers()[0]).toMatchObject({
      availability: 'unavailable',
      problem: expect.stringMatching(/unavailable/),
    });
    expect(readFileSync(join(home, 'mcp.json'), 'utf8')).toContain('gone');
  });
});
