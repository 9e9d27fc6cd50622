// Everything exported here is the public API of @clawsmith/mcp; the surface is pinned by
// public-surface.test.ts. A change to this list is a deliberate change with a changeset.
// The client (MCP servers as deferred tools) lives in ./client; the server adapter (a runtime's
// tools served over MCP, for `clawsmith mcp serve`) lives in ./server.

export { MCP_ERROR_CODES, McpError } from './mcp-errors.js';

export type {
  HttpServerEntry,
  McpOAuthSettings,
  McpServerEntry,
  McpToolPolicy,
  StdioServerEntry,
} from './client/server-entry.js';
export { DEFAULT_CALL_TIMEOUT_MS } from './client/server-entry.js';

export type {
  ConfiguredMcpServer,
  EditorMcpServer,
  McpConfiguration,
  McpConfigurationProblem,
  McpServerScope,
} from './client/mcp-configuration.js';
export { EDITOR_CONFIGURATION, loadMcpConfiguration, mcpConfigurationFiles } from './client/mcp-configuration.js';

export type { McpTrustState } from './client/trust-store.js';
export { McpTrustStore } from './client/trust-store.js';
export { trustMcpServer, untrustMcpServer } from './client/trust-commands.js';

export { MAX_MCP_TOOL_NAME_LENGTH, McpToolNameCollisionError, mcpToolName } from './client/mcp-tool-name.js';
export type { McpToolAnnotations, McpToolRisk } from './client/mcp-tool-risk.js';
export { mcpToolRisk } from './client/mcp-tool-risk.js';

export type { McpCallResult } from './client/call-result.js';
export { mapCallResult } from './client/call-result.js';

export type { McpCallOptions, McpConnectionOptions, McpConnectionState } from './client/server-connection.js';
export {
  MAX_STDIO_MESSAGE_BYTES,
  McpServerConnection,
  RESTART_BACKOFF_MS,
  STARTUP_TIMEOUT_MS,
} from './client/server-connection.js';

export type { CataloguedTool, ToolCatalogue } from './client/tool-catalogue.js';
export { ToolCatalogueStore } from './client/tool-catalogue.js';

export type { McpCredentialRecord, McpSignInStatus } from './client/oauth/credential-store.js';
export { McpCredentialStore } from './client/oauth/credential-store.js';
export type { McpSignInOptions, McpSignInResult } from './client/oauth/sign-in.js';
export { SIGN_IN_TIMEOUT_MS, signInToMcpServer, signOutOfMcpServer } from './client/oauth/sign-in.js';
export type {
  ElicitationOrigin,
  McpElicitationAnswer,
  McpElicitationHandler,
  McpElicitationRequest,
} from './client/elicitation.js';
export { ELICITATION_DECLINE_REASON_KEY } from './client/elicitation.js';

export type { McpTool } from './client/mcp-tool-definition.js';
export type { McpServerStatus, McpTools, McpToolsOptions } from './client/mcp-tools.js';
export { openMcpTools } from './client/mcp-tools.js';

export type {
  ServedApprovalRequest,
  ServedApprover,
  ServedArtifact,
  ServedCallOptions,
  ServedCallOutcome,
  ServedDiff,
  ServedFileChange,
  ServedRestorePoint,
  ServedSession,
  ServedTool,
  ServedUndoOutcome,
  ServedWorkspace,
} from './server/served-session.js';
export type { ServedConnection, ServedMcpServerOptions } from './server/served-mcp-server.js';
export { createServedMcpServer } from './server/served-mcp-server.js';
export { serveMcpOverStdio } from './server/serve-stdio.js';
export type {
  HttpGuardRefusal,
  HttpRequestGuard,
  ServeMcpOverHttpOptions,
  ServedHttpEndpoint,
} from './server/serve-http.js';
export {
  SERVED_HTTP_MAX_BODY_BYTES,
  SERVED_HTTP_MAX_SESSIONS,
  SERVED_HTTP_PATH,
  SERVED_HTTP_SESSION_IDLE_MS,
  serveMcpOverHttp,
} from './server/serve-http.js';
export type { ServedToolAnnotations } from './server/tool-annotations.js';
export { toolAnnotations } from './server/tool-annotations.js';
export type { ServedCallResult, ServedStructuredResult } from './server/served-call-result.js';
export { SERVED_OUTPUT_SCHEMA, servedCallResult } from './server/served-call-result.js';
export { CHANGES_TEXT_LIMIT_BYTES, CHANGES_TOOL_NAME, UNDO_TOOL_NAME } from './server/restore-point-tools.js';
export { artifactUri, parseServedUri, restorePointUri } from './server/served-uris.js';
