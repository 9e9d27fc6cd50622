import { MCP_ERROR_CODES, McpError } from '../../mcp-errors.js';
import { loadMcpConfiguration, type ConfiguredMcpServer } from '../mcp-configuration.js';
import { McpServerConnection } from '../server-connection.js';
import { isStdioEntry, type HttpServerEntry } from '../server-entry.js';
import { catalogueTools, ToolCatalogueStore } from '../tool-catalogue.js';
import { McpTrustStore } from '../trust-store.js';
import { McpCredentialStore, type McpSignInStatus } from './credential-store.js';
import { McpOAuthProvider } from './oauth-provider.js';
import { openRedirectListener } from './redirect-listener.js';
import { resolveRemoteEndpoint } from './remote-endpoint.js';

/** How long a sign-in waits for the browser to come back. */
export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

/** What {@link signInToMcpServer} needs. */
export interface McpSignInOptions {
  readonly homeDir: string;
  readonly workspaceRoot?: string;
  /** The server's name in `mcpServers`. */
  readonly name: string;
  /** Where `${env:NAME}` references are looked up; default `process.env`. */
  readonly environment?: NodeJS.ProcessEnv;
  /**
   * Shows the person the authorization URL: opens a browser, or prints it for a headless
   * machine. The browser must be able to reach the redirect listener on 127.0.0.1.
   */
  readonly openAuthorizationUrl: (url: URL) => void | Promise<void>;
  /** Ends the wait early (Ctrl-C). */
  readonly signal?: AbortSignal;
  /** How long to wait for the browser; default {@link SIGN_IN_TIMEOUT_MS}. */
  readonly timeoutMs?: number;
}

/** The outcome of a sign-in. */
export interface McpSignInResult {
  readonly server: ConfiguredMcpServer;
  /** False when the server let clawsmith in without asking (nothing was stored). */
  readonly signInNeeded: boolean;
  readonly status: McpSignInStatus;
  /** How many tools the server offered right after (their list is stored for sessions). */
  readonly toolCount?: number;
  /** Why the tools could not be listed, when they could not. */
  readonly problem?: string;
}

function remoteServer(options: { homeDir: string; workspaceRoot?: string; name: string }) {
  const configuration = loadMcpConfiguration(options);
  const server = configuration.servers.find((candidate) => candidate.name === options.name);
  if (!server) {
    const names = configuration.servers.map((candidate) => candidate.name);
    throw new McpError(
      MCP_ERROR_CODES.serverNotFound,
      `No MCP server is named ${JSON.stringify(options.name)}${names.length ? ` (configured: ${names.join(', ')})` : ''}. Check the name with: clawsmith mcp list`,
    );
  }
  if (isStdioEntry(server.entry))
    throw new McpError(
      MCP_ERROR_CODES.serverNotFound,
      `The MCP server ${JSON.stringify(options.name)} runs locally (command); only remote servers (url) sign in.`,
    );
  return server as ConfiguredMcpServer & { entry: HttpServerEntry };
}

/**
 * Signs in to a remote server (`clawsmith mcp login NAME`) with the SDK's OAuth flow: the first
 * request without a token gets the server's 401, whose `WWW-Authenticate` leads to the protected
 * resource metadata and the authorization server; the client registers (or uses the configured
 * client id), the person authorizes in a browser (PKCE, `state` checked), the browser comes back
 * to a listener on 127.0.0.1, and the code is exchanged for tokens, stored owner-only in the home.
 * Then the tools are listed once and their list stored. A project server must be trusted first.
 */
export async function signInToMcpServer(options: McpSignInOptions): Promise<McpSignInResult> {
  const server = remoteServer(options);
  const environment = options.environment ?? process.env;
  const trust = new McpTrustStore(options.homeDir).stateOf(server, options.workspaceRoot);
  if (trust === 'untrusted' || trust === 'changed')
    throw new McpError(
      MCP_ERROR_CODES.serverNotFound,
      `The MCP server ${JSON.stringify(server.name)} is a project server you have not trusted${trust === 'changed' ? ' in its current form' : ''}; review its entry and run: clawsmith mcp trust ${server.name}`,
    );
  const endpoint = resolveRemoteEndpoint(server.name, server.entry, environment);
  if (endpoint.authMode !== 'oauth')
    throw new McpError(
      MCP_ERROR_CODES.authRequired,
      endpoint.authMode === 'headers'
        ? `The MCP server ${JSON.stringify(server.name)} authenticates with the Authorization header of its entry; remove it to sign in with OAuth instead.`
        : `The MCP server ${JSON.stringify(server.name)} has "oauth": false in its entry; remove it to sign in.`,
    );
  const store = new McpCredentialStore(options.homeDir);
  const url = endpoint.url.href;
  // The listener checks each answer's `state` against the provider's latest request.
  const current: { provider?: McpOAuthProvider } = {};
  const listener = await openRedirectListener(server.name, () => current.provider?.expectedState);
  const provider = new McpOAuthProvider({
    store,
    serverName: server.name,
    serverUrl: url,
    settings: endpoint.oauth,
    signIn: { redirectUrl: listener.redirectUrl, openAuthorizationUrl: options.openAuthorizationUrl },
  });
  current.provider = provider;
  // A new sign-in replaces the old one: without this the stored tokens would simply be used.
  provider.invalidateCredentials('tokens');
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const { UnauthorizedError } = await import('@modelcontextprotocol/sdk/client/auth.js');
  const transport = new StreamableHTTPClientTransport(endpoint.url, {
    requestInit: { headers: endpoint.headers },
    authProvider: provider,
  });
  const client = new Client({ name: 'clawsmith', version: '0.1.0' }, { capabilities: {} });
  const timeout = AbortSignal.timeout(options.timeoutMs ?? SIGN_IN_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let signInNeeded = true;
  try {
    try {
      await client.connect(transport);
      signInNeeded = false;
    } catch (error) {
      if (!(error instanceof UnauthorizedError) || provider.authorizationUrl === undefined) throw error;
    }
    if (signInNeeded) {
      const code = await listener.waitForCode(signal).catch((error: unknown) => {
        if (timeout.aborted)
          throw new McpError(
            MCP_ERROR_CODES.authRequired,
            `No answer from the browser within ${Math.round((options.timeoutMs ?? SIGN_IN_TIMEOUT_MS) / 1000)} s; run clawsmith mcp login ${server.name} again.`,
          );
        throw error;
      });
      await transport.finishAuth(code);
      // Tokens of this server at any other URL are from an earlier entry: they go.
      store.remove(server.name, { exceptUrl: url });
    }
  } finally {
    await client.close().catch(() => undefined);
    await listener.close();
  }
  const status = store.statusOf(server.name, url);
  const connection = new McpServerConnection(server, {
    ...(options.workspaceRoot !== undefined ? { workspaceRoot: options.workspaceRoot } : {}),
    environment,
    credentials: store,
  });
  try {
    const tools = catalogueTools(await connection.listTools());
    new ToolCatalogueStore(options.homeDir).write(server.entrySha256, server.name, tools, {
      resources: connection.offersResources,
    });
    return { server, signInNeeded, status, toolCount: tools.length };
  } catch (error) {
    return { server, signInNeeded, status, problem: (error as Error).message };
  } finally {
    await connection.close();
  }
}

/** Forgets every stored credential of `name` (`clawsmith mcp logout NAME`); returns how many records went. */
export function signOutOfMcpServer(options: { homeDir: string; name: string }): number {
  return new McpCredentialStore(options.homeDir).remove(options.name);
}
