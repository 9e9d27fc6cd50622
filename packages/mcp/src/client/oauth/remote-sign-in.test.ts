import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { startOAuthMcpServer, type OAuthMcpServer } from '@clawsmith/test-utils/oauth-mcp-server';
import type { ToolExecutionContext } from '@clawsmith/tool-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { openMcpTools, type McpTools } from '../mcp-tools.js';
import { signInToMcpServer, signOutOfMcpServer } from './sign-in.js';

const context: ToolExecutionContext = {
  authorized: true,
  workspaceRoot: '/',
  sessionId: 's',
  turnId: 't',
  toolCallId: 'c',
  signal: new AbortController().signal,
};

/** A scripted browser: follows the authorization server's redirects to the loopback listener. */
function browse(url: URL): Promise<{ status: number; text: string; finalUrl: string }> {
  return fetch(url, { redirect: 'follow' }).then(async (response) => ({
    status: response.status,
    text: await response.text(),
    finalUrl: response.url,
  }));
}

let server: OAuthMcpServer | undefined;
let tools: McpTools | undefined;
afterEach(async () => {
  await tools?.close();
  tools = undefined;
  await server?.close();
  server = undefined;
});

function configure(home: string, entry: Record<string, unknown>): void {
  writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { remote: entry } }));
}

async function call(mcp: McpTools, name: string, input: Record<string, unknown> = {}) {
  const tool = mcp.tools.find((candidate) => candidate.name === `mcp__remote__${name}`);
  if (!tool) throw new Error(`no tool ${name}: ${mcp.tools.map((candidate) => candidate.name).join(', ')}`);
  return tool.execute(tool.inputSchema.parse(input), context);
}

describe('signInToMcpServer', { timeout: 60_000 }, () => {
  it('answers 401 with mcp_auth_required, signs in through a browser, calls tools, refreshes and reports revocation', async () => {
    server = await startOAuthMcpServer();
    const home = testdir();
    configure(home, { url: server.url });

    // A session never starts a sign-in: the 401 becomes a clear problem, and nothing registers.
    tools = await openMcpTools({ homeDir: home });
    const [before] = tools.servers();
    expect(before).toMatchObject({ availability: 'unavailable', auth: 'oauth', signIn: { signedIn: false } });
    expect(before?.problem).toContain('needs you to sign in');
    expect(before?.problem).toContain('Run: clawsmith mcp login remote');
    expect(server.counts.registrations).toBe(0);
    await tools.close();

    let visit: Promise<{ status: number; text: string; finalUrl: string }> | undefined;
    let shown: URL | undefined;
    const result = await signInToMcpServer({
      homeDir: home,
      name: 'remote',
      openAuthorizationUrl: (url) => {
        shown = url;
        visit = browse(url);
      },
    });
    expect(shown?.origin).toBe(new URL(server.url).origin);
    expect(shown?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(shown?.searchParams.get('scope')).toBe('mcp:tools');
    const page = await visit;
    expect(page?.status).toBe(200);
    expect(page?.finalUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?code=/);
    expect(page?.text).toContain('Signed in to remote');
    expect(result).toMatchObject({ signInNeeded: true, toolCount: 4, status: { signedIn: true, refreshable: true } });
    expect(Date.parse(result.status.expiresAt ?? '')).toBeGreaterThan(Date.now());
    expect(server.counts).toMatchObject({ registrations: 1, authorizations: 1, codeExchanges: 1 });

    // Owner-only files, and the tokens are there and nowhere else in the home.
    const folder = join(home, 'mcp', 'credentials');
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const [file] = readdirSync(folder);
    expect(statSync(join(folder, file as string)).mode & 0o777).toBe(0o600);
    const stored = () => readFileSync(join(folder, file as string), 'utf8');
    expect(server.issuedTokens.filter((token) => stored().includes(token))).toHaveLength(2);

    tools = await openMcpTools({ homeDir: home });
    expect(tools.servers()[0]).toMatchObject({ availability: 'offered', toolCount: 4, signIn: { signedIn: true } });
    const whoami = await call(tools, 'whoami');
    expect(whoami).toMatchObject({
      status: 'success',
      content: expect.stringMatching(/^client .+ with scopes mcp:tools$/),
    });

    // Expired access token: the 401 is answered with a refresh, without asking anyone.
    server.expireAccessTokens();
    expect(await call(tools, 'whoami')).toMatchObject({ status: 'success' });
    expect(server.counts).toMatchObject({ refreshes: 1, authorizations: 1 });

    // Revoked: only a person can fix it, and the result says how.
    server.revokeAll();
    const revoked = await call(tools, 'whoami');
    expect(revoked).toMatchObject({ status: 'error', code: 'mcp_auth_required', retryable: false });
    expect(revoked.content).toContain('Run: clawsmith mcp login remote');
    expect(server.counts.authorizations).toBe(1);
    // The refused tokens are forgotten; the client registration stays for the next sign-in.
    expect(server.issuedTokens.filter((token) => stored().includes(token))).toEqual([]);
    expect(JSON.parse(stored()).client.client_id).toEqual(expect.any(String));
  });

  it('keeps a token to its URL: a changed URL is signed out, and logout forgets everything', async () => {
    server = await startOAuthMcpServer();
    const home = testdir();
    configure(home, { url: server.url });
    await signInToMcpServer({ homeDir: home, name: 'remote', openAuthorizationUrl: (url) => void browse(url) });

    configure(home, { url: `${server.url}?tenant=other` });
    tools = await openMcpTools({ homeDir: home, discover: false });
    expect(tools.servers()[0]).toMatchObject({ auth: 'oauth', signIn: { signedIn: false } });
    await tools.close();

    configure(home, { url: server.url });
    tools = await openMcpTools({ homeDir: home, discover: false });
    expect(tools.servers()[0]).toMatchObject({ signIn: { signedIn: true } });
    expect(signOutOfMcpServer({ homeDir: home, name: 'remote' })).toBe(1);
    expect(tools.servers()[0]).toMatchObject({ signIn: { signedIn: true } }); // a snapshot of the start
    const fresh = await openMcpTools({ homeDir: home, discover: false });
    expect(fresh.servers()[0]).toMatchObject({ signIn: { signedIn: false } });
    expect(await call(fresh, 'whoami')).toMatchObject({ code: 'mcp_auth_required' });
    await fresh.close();
  });

  it('sends a static token from headers, resolved from ${env:NAME}, and never signs in', async () => {
    server = await startOAuthMcpServer();
    const home = testdir();
    configure(home, { url: server.url, headers: { Authorization: 'Bearer ${env:REMOTE_TOKEN}' } });
    tools = await openMcpTools({ homeDir: home, environment: { REMOTE_TOKEN: 'not-a-token-it-knows' } });
    expect(tools.servers()[0]).toMatchObject({ availability: 'unavailable', auth: 'headers' });
    expect(tools.servers()[0]?.problem).toContain('refused the credentials in its entry\'s "headers" (HTTP 401)');
    expect(tools.servers()[0]?.problem).not.toContain('not-a-token-it-knows');
    expect(server.counts.registrations).toBe(0);
    await tools.close();
    tools = await openMcpTools({ homeDir: home, environment: {} });
    expect(tools.servers()[0]?.problem).toContain('${REMOTE_TOKEN}, which is not set');
  });
});
