import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startOtlpReceiver, testdir } from '@clawsmith/test-utils';
import { startOAuthMcpServer } from '@clawsmith/test-utils/oauth-mcp-server';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BIN, childEnvironment, parseJsonLines, runCli, writeScript, type CliRun } from './cli-harness.js';

/**
 * `clawsmith mcp login NAME --no-browser`, with a scripted browser: it reads the URL the command
 * prints, follows the authorization server's redirects to the command's listener on 127.0.0.1,
 * and returns the page it landed on together with what the command printed.
 */
function loginWithScriptedBrowser(home: string, name: string): Promise<CliRun & { page: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'mcp', 'login', name, '--no-browser', '--workspace', home], {
      cwd: home,
      env: childEnvironment(home),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let visit: Promise<string> | undefined;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const url = /^(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m.exec(stderr)?.[1];
      if (url && !visit) visit = fetch(url, { redirect: 'follow' }).then((response) => response.text());
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (!visit) return resolve({ code, stdout, stderr, page: '' });
      visit.then((page) => resolve({ code, stdout, stderr, page }), reject);
    });
  });
}

/** Every file under `folder` except `skip`, with its bytes. */
function filesUnder(folder: string, skip: string): { path: string; bytes: Buffer }[] {
  const found: { path: string; bytes: Buffer }[] = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (path === skip) continue;
    if (statSync(path).isDirectory()) found.push(...filesUnder(path, skip));
    else found.push({ path, bytes: readFileSync(path) });
  }
  return found;
}

type Event = Record<string, unknown>;
const completed = (events: Event[], id: string) =>
  events.find((event) => event.type === 'tool.completed' && event.toolCallId === id);

describe('clawsmith with a remote MCP server that needs a sign-in', { timeout: 180_000 }, () => {
  it('asks for a login, signs in through the browser, calls, refreshes, reports revocation, and leaks no token', async () => {
    const server = await startOAuthMcpServer();
    onTestFinished(() => server.close());
    const home = testdir();
    const workspace = testdir();
    writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { remote: { url: server.url } } }));
    // Every command exports its traces, so a token that reached a span would be seen.
    const receiver = await startOtlpReceiver();
    onTestFinished(() => receiver.close());
    const tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' };
    const printed: string[] = [];
    const cli = async (args: string[]) => {
      const run = await runCli(args, { home, env: tracing });
      printed.push(run.stdout, run.stderr);
      return run;
    };
    const whoami = writeScript(home, [
      { toolCalls: [{ id: 'call_select', name: 'search_tools', arguments: { query: 'select:mcp__remote__whoami' } }] },
      { toolCalls: [{ id: 'call_whoami', name: 'mcp__remote__whoami', arguments: {} }] },
      { text: 'Done.' },
    ]);
    const runWhoami = () =>
      cli(['run', '--json', '--script', whoami, '--workspace', workspace, '--permission-mode', 'full-auto', 'who']);

    const listed = parseJsonLines((await cli(['mcp', 'list', '--json', '--workspace', workspace])).stdout);
    expect(listed[0]).toMatchObject({ name: 'remote', transport: 'http', auth: 'oauth', signIn: { signedIn: false } });

    // Before a sign-in: the server answers 401, the session says which command fixes it.
    const before = await runWhoami();
    expect(before.stderr).toContain('MCP server remote offers no tools this session');
    expect(before.stderr).toContain('Run: clawsmith mcp login remote');

    const login = await loginWithScriptedBrowser(home, 'remote');
    printed.push(login.stdout, login.stderr, login.page);
    expect(login.code).toBe(0);
    expect(login.page).toContain('Signed in to remote');
    expect(login.stdout).toMatch(
      /^Signed in to remote; the access token expires \S+ and is refreshed without asking\.\nIt offers 4 tools\.\n$/,
    );

    const text = (await cli(['mcp', 'list', '--workspace', workspace])).stdout;
    expect(text).toMatch(
      /auth: OAuth, signed in, scope mcp:tools, access token expires \S+ \(refreshed without asking\)/,
    );

    const signedIn = parseJsonLines((await runWhoami()).stdout);
    expect(completed(signedIn, 'call_whoami')).toMatchObject({ status: 'success' });
    expect(JSON.stringify(completed(signedIn, 'call_whoami'))).toMatch(/client \S+ with scopes mcp:tools/);

    server.expireAccessTokens();
    const refreshed = parseJsonLines((await runWhoami()).stdout);
    expect(completed(refreshed, 'call_whoami')).toMatchObject({ status: 'success' });
    expect(server.counts).toMatchObject({ refreshes: 1, authorizations: 1 });

    server.revokeAll();
    const revoked = parseJsonLines((await runWhoami()).stdout);
    expect(completed(revoked, 'call_whoami')).toMatchObject({
      status: 'error',
      result: { code: 'mcp_auth_required', retryable: false },
    });
    expect(JSON.stringify(completed(revoked, 'call_whoami'))).toContain('Run: clawsmith mcp login remote');

    // Tokens live only in <home>/mcp/credentials: not in the database (and its WAL), the event
    // log, artifacts, catalogues, or anything the commands printed.
    const credentials = join(home, 'mcp', 'credentials');
    const everythingElse = filesUnder(home, credentials);
    expect(everythingElse.some((file) => file.path.endsWith('.db') || file.path.includes('.db-'))).toBe(true);
    expect(server.issuedTokens.length).toBe(4);
    for (const token of server.issuedTokens) {
      for (const file of everythingElse) expect(file.bytes.includes(token), `${token} in ${file.path}`).toBe(false);
      for (const output of printed) expect(output.includes(token)).toBe(false);
      expect(receiver.payloadText().includes(token)).toBe(false);
    }
    // The traces were there to look in: the calls' spans, with the server's tool.
    expect(receiver.spans().some((span) => span.name === 'execute_tool mcp__remote__whoami')).toBe(true);

    expect((await cli(['mcp', 'logout', 'remote'])).stdout).toBe('Signed out of remote; its tokens are deleted.\n');
    expect(readdirSync(credentials)).toEqual([]);
    expect((await cli(['mcp', 'list', '--workspace', workspace])).stdout).toContain(
      'auth: OAuth, not signed in (clawsmith mcp login remote)',
    );
  });
});
