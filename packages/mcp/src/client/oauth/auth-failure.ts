import { MCP_ERROR_CODES, McpError } from '../../mcp-errors.js';
import { authRequiredError } from './oauth-provider.js';

/** How a connection authenticates to a remote server. */
export type McpAuthMode = 'oauth' | 'headers' | 'none';

function httpStatus(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' && code >= 400 && code < 600 ? code : undefined;
}

/**
 * The `mcp_auth_required` error for a failure that only a person can fix, or undefined for any
 * other failure. `UnauthorizedError` is how the SDK says it would need a browser: no stored
 * tokens, a refresh the authorization server refused (revoked or expired refresh token).
 */
export async function authFailure(
  error: unknown,
  serverName: string,
  mode: McpAuthMode,
): Promise<McpError | undefined> {
  if (McpError.isInstance(error)) return error.code === MCP_ERROR_CODES.authRequired ? error : undefined;
  const { UnauthorizedError } = await import('@modelcontextprotocol/sdk/client/auth.js');
  if (error instanceof UnauthorizedError)
    return authRequiredError(
      serverName,
      'its sign-in is missing, or expired and could not be refreshed, or was revoked.',
      error,
    );
  const status = httpStatus(error);
  if (status !== 401 && status !== 403) return undefined;
  if (mode === 'oauth')
    return authRequiredError(
      serverName,
      status === 401
        ? 'it refused the stored sign-in (HTTP 401).'
        : 'it wants more access than the sign-in granted (HTTP 403).',
      error,
    );
  return new McpError(
    MCP_ERROR_CODES.authRequired,
    mode === 'headers'
      ? `The MCP server ${JSON.stringify(serverName)} refused the credentials in its entry's "headers" (HTTP ${status}). Check the token they refer to (the variable's value), or remove the Authorization header to sign in with OAuth: clawsmith mcp login ${serverName}.`
      : `The MCP server ${JSON.stringify(serverName)} requires authorization (HTTP ${status}), and its entry has "oauth": false. Give it a token in "headers" or remove "oauth": false and run: clawsmith mcp login ${serverName}.`,
    { cause: error },
  );
}
