import { ClawsmithError } from '@clawsmith/tool-protocol';

/** The codes this package throws or returns (r: retrying unchanged can succeed). */
export const MCP_ERROR_CODES = Object.freeze({
  /** An entry refers to `${VAR}` and the variable is not set. */
  environmentMissing: 'mcp_env_missing',
  /** Two tools map to one `mcp__<server>__<tool>` name. A startup error. */
  toolNameCollision: 'mcp_tool_name_collision',
  /** `trust`/`untrust` named a server the configuration does not have, or not a project server. */
  serverNotFound: 'mcp_server_not_found',
  /** The server could not be started or reached, or ended; retryable (it restarts with backoff). */
  serverUnavailable: 'mcp_server_unavailable',
  /** The server answered the call with `isError: true`. */
  toolError: 'mcp_tool_error',
  /** The server did not answer within the entry's timeout; the call was cancelled on the server. */
  timeout: 'mcp_timeout',
  /** The server answered with a protocol error (unknown tool, bad parameters). */
  protocolError: 'mcp_protocol_error',
  /**
   * The remote server wants a sign-in (OAuth) that is missing, expired beyond refresh or revoked,
   * or refused the static credentials of the entry's `headers`. Not retryable: a person must act.
   */
  authRequired: 'mcp_auth_required',
} as const);

/** An error of this package, with one of {@link MCP_ERROR_CODES}. */
export class McpError extends ClawsmithError {
  constructor(code: string, message: string, options: { retryable?: boolean; cause?: unknown } = {}) {
    super(code, message, options);
    this.name = 'McpError';
  }
}
