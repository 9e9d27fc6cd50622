import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { MCP_ERROR_CODES, McpError } from '../../mcp-errors.js';
import type { McpCredentialStore } from './credential-store.js';

/** The OAuth settings of an entry after `${env:NAME}` expansion. */
export interface ResolvedOAuthSettings {
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly scope?: string;
  readonly clientMetadataUrl?: string;
}

/** What a provider needs. */
export interface McpOAuthProviderOptions {
  readonly store: McpCredentialStore;
  readonly serverName: string;
  /** The server URL after expansion: the key the credentials are kept under. */
  readonly serverUrl: string;
  readonly settings: ResolvedOAuthSettings;
  /**
   * Present while a person signs in (`clawsmith mcp login`): where the browser comes back to,
   * and who opens the authorization URL. Absent in a session, which never starts a sign-in: it
   * uses and refreshes stored tokens, and otherwise answers `mcp_auth_required`.
   */
  readonly signIn?: {
    readonly redirectUrl: string;
    readonly openAuthorizationUrl: (url: URL) => void | Promise<void>;
  };
}

/** The redirect a session names when it refreshes (never used for a browser). */
const SESSION_REDIRECT_URL = 'http://127.0.0.1/callback';

/** The command that signs in to `serverName`, for messages. */
export function loginCommand(serverName: string): string {
  return `clawsmith mcp login ${/^[A-Za-z0-9_.-]+$/.test(serverName) ? serverName : JSON.stringify(serverName)}`;
}

/** The error a session answers when only a person can help. */
export function authRequiredError(serverName: string, why: string, cause?: unknown): McpError {
  return new McpError(
    MCP_ERROR_CODES.authRequired,
    `The MCP server ${JSON.stringify(serverName)} needs you to sign in: ${why} Run: ${loginCommand(serverName)}`,
    { cause },
  );
}

/**
 * clawsmith's side of the SDK's OAuth client flow: discovery, registration, PKCE, token exchange
 * and refresh are the SDK's (`auth()`); this keeps what they produce in {@link McpCredentialStore},
 * re-read at every use so a sign-in in another process is seen at the next request.
 */
export class McpOAuthProvider implements OAuthClientProvider {
  readonly #options: McpOAuthProviderOptions;
  #codeVerifier: string | undefined;
  #state: string | undefined;
  /** Set when the SDK wanted to send a person to the authorization server. */
  authorizationUrl: URL | undefined;

  constructor(options: McpOAuthProviderOptions) {
    this.#options = options;
  }

  get redirectUrl(): string {
    const registered = (this.#record()?.client as { redirect_uris?: string[] } | undefined)?.redirect_uris?.[0];
    return this.#options.signIn?.redirectUrl ?? registered ?? SESSION_REDIRECT_URL;
  }

  get clientMetadataUrl(): string | undefined {
    return this.#options.settings.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const { settings } = this.#options;
    return {
      client_name: 'clawsmith',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: settings.clientSecret ? 'client_secret_post' : 'none',
      ...(settings.scope ? { scope: settings.scope } : {}),
    };
  }

  /** A fresh random `state` per authorization request; the redirect listener checks it. */
  state(): string {
    this.#state = randomBytes(24).toString('base64url');
    return this.#state;
  }

  /** The `state` of the last authorization request. */
  get expectedState(): string | undefined {
    return this.#state;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const { settings, serverName } = this.#options;
    const stored = this.#record()?.client;
    if (settings.clientId) {
      // The configured id wins; a stored copy of it carries the issuer the SDK bound it to.
      if (stored?.client_id === settings.clientId) return { ...stored, ...this.#secret() };
      return { client_id: settings.clientId, ...this.#secret() };
    }
    if (stored) return stored;
    // Registering a client is part of signing in; a session does not do it behind the person's back.
    if (!this.#options.signIn) throw authRequiredError(serverName, 'you have not signed in to it yet.');
    return undefined;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    // A configured secret stays in the configuration (as a reference), never copied here.
    const { client_secret: _secret, ...kept } = client as OAuthClientInformationMixed & { client_secret?: string };
    const toKeep = this.#options.settings.clientSecret ? kept : client;
    this.#update((record) => ({ ...record, client: toKeep }));
  }

  tokens(): OAuthTokens | undefined {
    return this.#record()?.tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    const now = Date.now();
    this.#update((record) => ({
      ...record,
      tokens,
      tokensSavedAt: new Date(now).toISOString(),
      ...(typeof tokens.expires_in === 'number'
        ? { accessTokenExpiresAt: new Date(now + tokens.expires_in * 1000).toISOString() }
        : { accessTokenExpiresAt: undefined }),
    }));
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.authorizationUrl = authorizationUrl;
    // In a session nobody is there to sign in: the SDK then fails the request (UnauthorizedError).
    if (this.#options.signIn) await this.#options.signIn.openAuthorizationUrl(authorizationUrl);
  }

  // The PKCE verifier lives only in this process: it matters only until the code comes back.
  saveCodeVerifier(codeVerifier: string): void {
    this.#codeVerifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.#codeVerifier === undefined) throw new Error('No PKCE code verifier: the sign-in was not started here.');
    return this.#codeVerifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'verifier') {
      this.#codeVerifier = undefined;
      return;
    }
    this.#update((record) => {
      if (scope === 'all') return { version: 1, server: record.server, url: record.url };
      if (scope === 'client') return { ...record, client: undefined };
      if (scope === 'discovery') return { ...record, discovery: undefined };
      return { ...record, tokens: undefined, tokensSavedAt: undefined, accessTokenExpiresAt: undefined };
    });
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#update((record) => ({ ...record, discovery: state }));
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#record()?.discovery;
  }

  #secret(): { client_secret?: string } {
    const secret = this.#options.settings.clientSecret;
    return secret ? { client_secret: secret } : {};
  }

  #record() {
    return this.#options.store.read(this.#options.serverName, this.#options.serverUrl);
  }

  #update(change: Parameters<McpCredentialStore['update']>[2]): void {
    this.#options.store.update(this.#options.serverName, this.#options.serverUrl, change);
  }
}
