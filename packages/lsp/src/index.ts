// Everything exported here is the public API of @clawsmith/lsp; the surface is pinned by
// public-surface.test.ts. A change to this list is a deliberate change with a changeset.

export type { LspServiceOptions, PreparedDocument, RunningServerInfo } from './lsp-service.js';
export { LspService, createLspService } from './lsp-service.js';
export type { LspTool, LspTools } from './create-lsp-tools.js';
export { createLspTools } from './create-lsp-tools.js';

export type { LspLimits } from './lsp-limits.js';
export { DEFAULT_LSP_LIMITS } from './lsp-limits.js';

export type { DiagnosticsMode, LanguageServerSpec, ServerCommand } from './server-spec.js';
export { PINNED_SERVER_PACKAGES, builtinServers } from './builtin-servers.js';
export type { ConfigSources, LspConfig, LspServerConfig } from './server-config.js';
export {
  HOME_CONFIG_FILE,
  WORKSPACE_CONFIG_PATH,
  readLspConfig,
  resolveServers,
  workspaceCommandFingerprint,
} from './server-config.js';
export { SERVER_ENVIRONMENT_KEYS, serverEnvironment } from './server-environment.js';
export type { LanguageToolingTrust } from './tooling-trust.js';
export {
  LANGUAGE_TOOLING_FILES,
  LanguageToolingTrustStore,
  LOCAL_TYPESCRIPT_FOLDERS,
  languageToolingFingerprint,
} from './tooling-trust.js';

export type { LspErrorCode } from './lsp-error.js';
export { LSP_ERROR_CODES, LspError } from './lsp-error.js';
