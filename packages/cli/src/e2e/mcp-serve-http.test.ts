import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { openClawsmithHome } from '@clawsmith/core';
import { SessionStore } from '@clawsmith/core/testing';
import { testdir } from '@clawsmith/test-utils';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BIN, childEnvironment, runCli } from './cli-harness.js';
import { processAlive, processesWith, waitFor } from './mcp-serve-harness.js';

interface HttpServe {
  readonly child: ChildProcess;
  readonly url: string;
  readonly token: string;
  /** What the server printed on stdout so far. */
  output(): string;
}

/** Starts `clawsmith mcp serve --http` and reads the URL and token it prints; stopped after the test. */
async function startHttpServe(
  home: string,
  workspace: string,
  environment: Record<string, string> = {},
): Promise<HttpServe> {
  const child = spawn(process.execPath, [BIN, 'mcp', 'serve', '--http', '--workspace', workspace], {
    env: childEnvironment(home, { CLAWSMITH_MCP_TOKEN: undefined, ...environment }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onTestFinished(async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
  let stdout = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  await waitFor(
    () => /Authorization: Bearer .+\n/.test(stdout) || child.exitCode !== null,
    'the URL and token',
    60_000,
  );
  const url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(stdout)?.[1];
  const token = environment.CLAWSMITH_MCP_TOKEN ?? /Authorization: Bearer (\S+)\n/.exec(stdout)?.[1];
  if (!url || !token) throw new Error(`clawsmith mcp serve --http printed no URL/token: ${stdout}`);
  return { child, url, token, output: () => stdout };
}

async function connect(served: HttpServe, name: string, approve = false) {
  const transport = new StreamableHTTPClientTransport(new URL(served.url), {
    requestInit: { headers: { Authorization: `Bearer ${served.token}` } },
  });
  const client = new Client({ name, version: '1.0.0' }, { capabilities: approve ? { elicitation: { form: {} } } : {} });
  if (approve)
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { decision: 'allow' } }));
  await client.connect(transport);
  onTestFinished(() => client.close().catch(() => undefined));
  return {
    client,
    transport,
    call: async (tool: string, args: Record<string, unknown> = {}) =>
      (await client.callTool({ name: tool, arguments: args })) as CallToolResult,
  };
}

const structured = (result: CallToolResult) => result.structuredContent as { status: string; code?: string };

describe('clawsmith mcp serve --http', { timeout: 120_000 }, () => {
  it('refuses requests without the token or addressed to another host, as the web server does', async () => {
    const served = await startHttpServe(testdir(), testdir());
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    // node:http, not fetch: fetch will not send a Host header of our choosing.
    const post = (headers: Record<string, string>) =>
      new Promise<{ status: number; json: () => Promise<unknown> }>((resolve, reject) => {
        const sent = request(
          served.url,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          },
          (response) => {
            let text = '';
            response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
            response.on('end', () =>
              resolve({ status: response.statusCode ?? 0, json: async () => JSON.parse(text) as unknown }),
            );
          },
        );
        sent.on('error', reject);
        sent.end(initialize);
      });
    const anonymous = await post({});
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: 'unauthorized' } });
    expect((await post({ authorization: 'Bearer wrong' })).status).toBe(401);
    const rebound = await post({ authorization: `Bearer ${served.token}`, host: 'evil.example' });
    expect(rebound.status).toBe(403);
    expect(await rebound.json()).toMatchObject({ error: { code: 'host_not_allowed' } });
    const foreign = await post({ authorization: `Bearer ${served.token}`, origin: 'http://evil.example' });
    expect(await foreign.json()).toMatchObject({ error: { code: 'origin_not_allowed' } });
  });

  it('lists tools, edits, undoes, says undone twice; two clients are two sessions', async () => {
    const home = testdir();
    const workspace = testdir({ 'a.txt': 'one\n' });
    const served = await startHttpServe(home, workspace);
    const [first, second] = [await connect(served, 'first'), await connect(served, 'second')];
    const { tools } = await first.client.listTools();
    expect(tools.find((tool) => tool.name === 'read_file')?.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((tool) => tool.name === 'write_file')?.annotations).toMatchObject({ destructiveHint: true });

    expect((await first.call('edit_file', { path: 'a.txt', oldText: 'one', newText: 'two' })).isError).toBe(false);
    expect((await second.call('read_file', { path: 'a.txt' })).isError).toBe(false);
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('two\n');
    expect(structured(await second.call('clawsmith_undo'))).toMatchObject({ code: 'checkpoint_not_found' });
    expect((await first.call('clawsmith_undo')).isError).toBe(false);
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('one\n');
    expect(structured(await first.call('clawsmith_undo'))).toMatchObject({ code: 'checkpoint_already_undone' });
    const escape = await first.call('read_file', { path: '../x' });
    expect(structured(escape)).toMatchObject({ status: 'error', code: 'path_outside_workspace' });

    const stored = await openClawsmithHome(home);
    try {
      const titles = (await new SessionStore(stored.db).listSessions()).map((session) => session.title).sort();
      expect(titles).toEqual(['MCP: first 1.0.0', 'MCP: second 1.0.0']);
    } finally {
      await stored.close();
    }
  });

  it('a client that disconnects mid-call: the call closes cancelled, its command ends, the server serves on', async () => {
    const home = testdir();
    const served = await startHttpServe(home, testdir());
    const leaving = await connect(served, 'leaving', true);
    const marker = `32.${process.pid}${Date.now() % 100_000}`;
    const running = leaving.call('run_command', { command: `sleep ${marker}` }).catch((error) => error);
    await waitFor(() => processesWith(`sleep ${marker}`).length > 0, 'the command to start');
    const commandPids = processesWith(`sleep ${marker}`);
    await leaving.client.close();
    expect(await running).toBeInstanceOf(Error);
    await waitFor(() => commandPids.every((pid) => !processAlive(pid)), 'the command processes to end', 20_000);

    const stored = await openClawsmithHome(home);
    try {
      const store = new SessionStore(stored.db);
      const [session] = await store.listSessions();
      const completed = async () =>
        (await store.listEvents(session!.id)).find((event) => event.type === 'tool.completed');
      for (let attempt = 0; attempt < 100 && !(await completed()); attempt += 1)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await completed()).toMatchObject({ toolName: 'run_command', status: 'cancelled' });
    } finally {
      await stored.close();
    }
    const staying = await connect(served, 'staying');
    expect((await staying.client.listTools()).tools.length).toBeGreaterThan(5);
    expect(served.child.exitCode).toBeNull();
  });

  it('CLAWSMITH_MCP_TOKEN fixes the token: it is accepted and not printed, a wrong one is refused, a weak one stops the start', async () => {
    const home = testdir();
    const workspace = testdir({ 'a.txt': 'one\n' });
    const token = `fixed-${randomBytes(16).toString('hex')}`;
    const served = await startHttpServe(home, workspace, { CLAWSMITH_MCP_TOKEN: token });
    expect(served.output()).not.toContain(token);
    expect(served.output()).toContain('Authorization: Bearer <the token in CLAWSMITH_MCP_TOKEN>');
    const fixed = await connect(served, 'fixed');
    expect((await fixed.call('read_file', { path: 'a.txt' })).isError).toBe(false);

    const wrong = new Client({ name: 'wrong', version: '1.0.0' });
    const wrongTransport = new StreamableHTTPClientTransport(new URL(served.url), {
      requestInit: { headers: { Authorization: `Bearer ${token}x` } },
    });
    await expect(wrong.connect(wrongTransport)).rejects.toThrow(/401|unauthorized/i);
    // The fixed token still works after a wrong one (one wrong token is far from the throttle).
    expect((await fixed.call('read_file', { path: 'a.txt' })).isError).toBe(false);

    const weak = await runCli(['mcp', 'serve', '--http', '--workspace', workspace], {
      home,
      env: { CLAWSMITH_MCP_TOKEN: 'short' },
    });
    expect(weak.code).not.toBe(0);
    expect(weak.stderr).toContain('invalid_token');
    expect(weak.stdout).not.toContain('Authorization');
  });

  it('a session the client ends (DELETE) ends its background commands; another session keeps its own', async () => {
    const served = await startHttpServe(testdir(), testdir());
    const marker = (name: string) => `sleep 300.${process.pid}${name}${Date.now() % 100_000}`;
    const started = async (name: string) => {
      const client = await connect(served, name, true);
      expect((await client.call('search_tools', { query: 'select:start_command' })).isError).toBe(false);
      const command = marker(name === 'ending' ? '1' : '2');
      const start = await client.call('start_command', { command });
      expect(start.isError, JSON.stringify(start.content)).toBe(false);
      await waitFor(() => processesWith(command).length > 0, `${command} to start`);
      return { client, command, pids: processesWith(command) };
    };
    const ending = await started('ending');
    const staying = await started('staying');

    await ending.client.transport.terminateSession();
    await ending.client.client.close();
    await waitFor(() => ending.pids.every((pid) => !processAlive(pid)), 'the ended session’s command to end', 20_000);
    expect(staying.pids.every((pid) => processAlive(pid))).toBe(true);
    expect((await staying.client.call('read_file', { path: '.' })).structuredContent).toBeDefined();
    expect(served.child.exitCode).toBeNull();
  });
});
