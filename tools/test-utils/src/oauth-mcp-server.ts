// Test helper: a remote MCP server on 127.0.0.1 that requires OAuth, built with the official SDK's
// McpServer, Streamable HTTP server transport, auth router (a local authorization server with
// metadata, dynamic registration, authorize, token, revoke) and bearer middleware. Its own part is
// only the in-memory bookkeeping an authorization server must do (codes, tokens, expiry, revocation).
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { z } from 'zod';

/** A running OAuth-protected MCP server and its authorization server. */
export interface OAuthMcpServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** Every access and refresh token ever issued (to check none leaked into what a client wrote). */
  readonly issuedTokens: readonly string[];
  /** The answers `confirm_deploy` got to its question, in order. */
  readonly elicitationAnswers: readonly { action: string; content?: unknown }[];
  /** How often each step ran. */
  readonly counts: {
    registrations: number;
    authorizations: number;
    codeExchanges: number;
    refreshes: number;
    unauthorized: number;
  };
  /** Makes every access token issued so far expire now (refresh tokens stay valid). */
  expireAccessTokens(): void;
  /** Revokes every access and refresh token issued so far. */
  revokeAll(): void;
  close(): Promise<void>;
}

interface IssuedToken {
  readonly clientId: string;
  readonly scopes: string[];
  readonly resource?: URL;
  expiresAt: number;
  revoked: boolean;
}

/**
 * Starts the server. `accessTokenSeconds` is the lifetime the token endpoint reports and keeps
 * (default 3600). The authorization endpoint approves at once (a person who clicks "allow"),
 * redirecting the browser to the client's loopback redirect with the code and `state`.
 */
export async function startOAuthMcpServer(options: { accessTokenSeconds?: number } = {}): Promise<OAuthMcpServer> {
  const lifetime = options.accessTokenSeconds ?? 3600;
  const clients = new Map<string, OAuthClientInformationFull>();
  const codes = new Map<string, { clientId: string; params: AuthorizationParams }>();
  const accessTokens = new Map<string, IssuedToken>();
  const refreshTokens = new Map<string, IssuedToken>();
  const issuedTokens: string[] = [];
  const elicitationAnswers: { action: string; content?: unknown }[] = [];
  const counts = { registrations: 0, authorizations: 0, codeExchanges: 0, refreshes: 0, unauthorized: 0 };

  const clientsStore: OAuthRegisteredClientsStore = {
    getClient: (clientId) => clients.get(clientId),
    registerClient: (client) => {
      counts.registrations += 1;
      const registered = client as OAuthClientInformationFull;
      clients.set(registered.client_id, registered);
      return registered;
    },
  };
  const issue = (clientId: string, scopes: string[], resource?: URL): OAuthTokens => {
    const access = `at_${randomBytes(24).toString('hex')}`;
    const refresh = `rt_${randomBytes(24).toString('hex')}`;
    const grant = { clientId, scopes, ...(resource ? { resource } : {}), revoked: false };
    accessTokens.set(access, { ...grant, expiresAt: Date.now() + lifetime * 1000 });
    refreshTokens.set(refresh, { ...grant, expiresAt: Number.POSITIVE_INFINITY });
    issuedTokens.push(access, refresh);
    return {
      access_token: access,
      token_type: 'bearer',
      expires_in: lifetime,
      refresh_token: refresh,
      scope: scopes.join(' '),
    };
  };
  const provider: OAuthServerProvider = {
    clientsStore,
    async authorize(client, params, response) {
      counts.authorizations += 1;
      const code = randomUUID();
      codes.set(code, { clientId: client.client_id, params });
      const target = new URL(params.redirectUri);
      target.searchParams.set('code', code);
      if (params.state !== undefined) target.searchParams.set('state', params.state);
      response.redirect(302, target.href);
    },
    async challengeForAuthorizationCode(_client, code) {
      const entry = codes.get(code);
      if (!entry) throw new InvalidGrantError('Unknown authorization code');
      return entry.params.codeChallenge;
    },
    async exchangeAuthorizationCode(client, code) {
      const entry = codes.get(code);
      if (!entry || entry.clientId !== client.client_id) throw new InvalidGrantError('Unknown authorization code');
      codes.delete(code);
      counts.codeExchanges += 1;
      return issue(client.client_id, entry.params.scopes ?? [], entry.params.resource);
    },
    async exchangeRefreshToken(client, refreshToken) {
      const grant = refreshTokens.get(refreshToken);
      if (!grant || grant.revoked || grant.clientId !== client.client_id)
        throw new InvalidGrantError('The refresh token is not valid');
      // Rotation: the old refresh token is spent.
      grant.revoked = true;
      counts.refreshes += 1;
      return issue(client.client_id, grant.scopes, grant.resource);
    },
    async verifyAccessToken(token): Promise<AuthInfo> {
      const grant = accessTokens.get(token);
      if (!grant || grant.revoked || grant.expiresAt <= Date.now()) {
        counts.unauthorized += 1;
        throw new InvalidTokenError('The access token is not valid');
      }
      return {
        token,
        clientId: grant.clientId,
        scopes: grant.scopes,
        expiresAt: Math.floor(grant.expiresAt / 1000),
        ...(grant.resource ? { resource: grant.resource } : {}),
      };
    },
  };

  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const mcpUrl = new URL('/mcp', base);

  const app = createMcpExpressApp({ host: '127.0.0.1' });
  const noLimit = { rateLimit: false as const };
  app.use(
    mcpAuthRouter({
      provider,
      issuerUrl: new URL(base),
      resourceServerUrl: mcpUrl,
      scopesSupported: ['mcp:tools'],
      resourceName: 'clawsmith test server',
      authorizationOptions: noLimit,
      tokenOptions: noLimit,
      clientRegistrationOptions: noLimit,
      revocationOptions: noLimit,
    }),
  );
  const bearer = requireBearerAuth({
    verifier: provider,
    requiredScopes: ['mcp:tools'],
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
  });
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const handle = async (request: { headers: Record<string, unknown>; body?: unknown }, response: unknown) => {
    const sessionId = request.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (!transport) {
      const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void transports.set(id, created),
      });
      created.onclose = () => {
        if (created.sessionId) transports.delete(created.sessionId);
      };
      await remoteTools(elicitationAnswers).connect(created);
      transport = created;
    }
    await transport.handleRequest(request as never, response as never, request.body);
  };
  app.post('/mcp', bearer, (request: unknown, response: unknown) => void handle(request as never, response));
  app.get('/mcp', bearer, (request: unknown, response: unknown) => void handle(request as never, response));
  app.delete('/mcp', bearer, (request: unknown, response: unknown) => void handle(request as never, response));
  http.on('request', app);

  return {
    url: mcpUrl.href,
    issuedTokens,
    elicitationAnswers,
    counts,
    expireAccessTokens() {
      for (const grant of accessTokens.values()) grant.expiresAt = Date.now() - 1;
    },
    revokeAll() {
      for (const grant of [...accessTokens.values(), ...refreshTokens.values()]) grant.revoked = true;
    },
    async close() {
      await Promise.all([...transports.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** The server's tools: plain text, structured output, a resource link, and a question to the person. */
function remoteTools(answers: { action: string; content?: unknown }[]): McpServer {
  const server = new McpServer({ name: 'clawsmith-oauth-test', version: '1.0.0' });
  server.registerTool(
    'whoami',
    { description: 'Says which OAuth client and scopes the call carries', inputSchema: {} },
    async (_args, extra) => ({
      content: [
        { type: 'text', text: `client ${extra.authInfo?.clientId} with scopes ${extra.authInfo?.scopes.join(' ')}` },
      ],
    }),
  );
  server.registerTool(
    'forecast',
    {
      description: 'The weather forecast for a city, as structured data',
      inputSchema: { city: z.string() },
      outputSchema: { city: z.string(), celsius: z.number(), sky: z.enum(['clear', 'cloudy', 'rain']) },
    },
    async ({ city }) => {
      const structuredContent = { city, celsius: 21.5, sky: 'clear' as const };
      return { content: [{ type: 'text', text: `${city}: 21.5 °C, clear` }], structuredContent };
    },
  );
  server.registerResource(
    'report',
    'report://latest',
    { mimeType: 'text/plain', description: 'The latest report' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Report: all systems nominal.' }] }),
  );
  server.registerTool(
    'latest_report',
    { description: 'Links the latest report (read it through resources/read)', inputSchema: {} },
    async () => ({
      content: [
        { type: 'text', text: 'The report is ready.' },
        { type: 'resource_link', uri: 'report://latest', name: 'latest report', mimeType: 'text/plain' },
      ],
    }),
  );
  server.registerTool(
    'confirm_deploy',
    { description: 'Asks the person to confirm a deployment before it happens', inputSchema: { target: z.string() } },
    async ({ target }) => {
      const answer = await server.server.elicitInput({
        message: `Deploy to ${target}?`,
        requestedSchema: {
          type: 'object',
          properties: { confirm: { type: 'boolean', description: 'Deploy now' } },
          required: ['confirm'],
        },
      });
      answers.push({ action: answer.action, ...(answer.content ? { content: answer.content } : {}) });
      const reason = (answer._meta as Record<string, unknown> | undefined)?.['clawsmith/reason'];
      return {
        content: [
          {
            type: 'text',
            text: `answer: ${answer.action}${answer.content ? ` ${JSON.stringify(answer.content)}` : ''}${typeof reason === 'string' ? ` (reason: ${reason})` : ''}`,
          },
        ],
      };
    },
  );
  return server;
}
