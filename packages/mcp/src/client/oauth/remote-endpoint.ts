import { expandReferences } from '../environment-references.js';
import type { HttpServerEntry } from '../server-entry.js';
import type { McpAuthMode } from './auth-failure.js';
import type { ResolvedOAuthSettings } from './oauth-provider.js';

/** An HTTP entry with its references expanded: what a connection sends, kept in memory only. */
export interface RemoteEndpoint {
  readonly url: URL;
  readonly headers: Record<string, string>;
  /** `headers` when the entry carries its own Authorization header; `none` with `"oauth": false`. */
  readonly authMode: McpAuthMode;
  readonly oauth: ResolvedOAuthSettings;
}

/**
 * Expands `${env:NAME}` references of an HTTP entry (throwing `mcp_env_missing` for an unset
 * one) and decides how it authenticates: a static Authorization header is used as written and
 * OAuth stays out of the way; otherwise OAuth, unless the entry says `"oauth": false`.
 */
export function resolveRemoteEndpoint(
  serverName: string,
  entry: HttpServerEntry,
  environment: NodeJS.ProcessEnv,
): RemoteEndpoint {
  const expand = (text: string) => expandReferences(text, environment, serverName);
  const url = new URL(expand(entry.url));
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(entry.headers ?? {})) headers[key] = expand(value);
  const hasAuthorization = Object.keys(headers).some((key) => key.toLowerCase() === 'authorization');
  const written = entry.oauth === false ? {} : (entry.oauth ?? {});
  const oauth: ResolvedOAuthSettings = {
    ...(written.clientId ? { clientId: expand(written.clientId) } : {}),
    ...(written.clientSecret ? { clientSecret: expand(written.clientSecret) } : {}),
    ...(written.scope ? { scope: expand(written.scope) } : {}),
    ...(written.clientMetadataUrl ? { clientMetadataUrl: expand(written.clientMetadataUrl) } : {}),
  };
  const authMode: McpAuthMode = hasAuthorization ? 'headers' : entry.oauth === false ? 'none' : 'oauth';
  return { url, headers, authMode, oauth };
}
