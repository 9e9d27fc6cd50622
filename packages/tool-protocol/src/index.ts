// Everything exported here is the public API of @clawsmith/tool-protocol; the surface is pinned
// by public-surface.test.ts. A change to this list is a deliberate change with a changeset.

export type { ToolRisk } from './tool-risk.js';
export { TOOL_RISKS, isToolRisk, maxRisk, riskRank } from './tool-risk.js';

export type { ToolCapability } from './tool-capability.js';
export { CAPABILITY_RISK_FLOORS, TOOL_CAPABILITIES, isToolCapability } from './tool-capability.js';

export type {
  AnyToolDefinition,
  ToolDefinition,
  ToolDefinitionInput,
  ToolPathArgument,
  ToolSearchMetadata,
} from './tool-definition.js';
export { defineTool } from './tool-definition.js';

export type { ResolvedToolSecurity } from './tool-security.js';
export { resolveToolSecurity } from './tool-security.js';

export type {
  AppendableArtifact,
  BatchRecording,
  ArtifactWriteOptions,
  ArtifactWriter,
  FileChangeRecorder,
  FilePostimage,
  FilePreimage,
  RecordedPostimage,
  RecordedPreimage,
  ToolExecutionContext,
  ToolProgress,
} from './execution-context.js';
export { assertAuthorized } from './execution-context.js';

export type { TurnChangedFiles } from './turn-changed-files.js';

export type { ProtectedPathEntry } from './protected-paths.js';
export { PROTECTED_PATHS, protectedPathEntry, protectedPathGlobs } from './protected-paths.js';

export type { ArtifactReference } from './artifact-reference.js';

export type { ToolDisplay, ToolDisplayField, ToolDisplayKind, ToolDisplayLimits } from './tool-display.js';
export { DEFAULT_DISPLAY_LIMITS, TOOL_DISPLAY_KINDS } from './tool-display.js';

export type {
  ToolExecutionResult,
  ToolResultCode,
  ToolResultExtras,
  ToolResultMetadata,
  ToolResultStatus,
} from './tool-result.js';
export {
  TOOL_RESULT_CODES,
  TOOL_RESULT_STATUSES,
  resultMetadata,
  toolCancelled,
  toolDenied,
  toolError,
  toolSuccess,
} from './tool-result.js';

export type { NormalizeLimits } from './normalize-tool-result.js';
export { DEFAULT_NORMALIZE_LIMITS, normalizeToolResult } from './normalize-tool-result.js';
export { toolResultFromError } from './error-result.js';

export { REDACTED, redactSecrets } from './redact-secrets.js';
export type { TraceContext, TraceContextRequest, TraceContextSource } from './trace-context.js';
export { isTraceparent, isTracestate, traceContextEnvironment } from './trace-context.js';
export { sanitizeDisplay, stripControlSequences } from './sanitize-display.js';
export { boundText, headAndTail } from './bounded-text.js';

export type { JsonValue, ModelToolSchema } from './model-tool-schema.js';
export { canonicalJson, canonicalSha256, toModelToolSchema } from './model-tool-schema.js';

export type { ClawsmithErrorOptions } from './clawsmith-error.js';
export { ClawsmithError, UnauthorizedToolError } from './clawsmith-error.js';

export type {
  WorkspaceMutation,
  WorkspaceMutationBatch,
  WorkspaceMutationOutcome,
  WorkspaceWall,
} from './workspace-mutations.js';
export { mutationFailure } from './workspace-mutations.js';
export { WORKSPACE_MUTATION_SOURCE } from './workspace-mutation-applier.js';
export { createDirectWorkspaceWall } from './direct-workspace-wall.js';

export type { NetworkAddressKind } from './network-address.js';
export { addressInRange, classifyNetworkAddress, isNetworkAddress } from './network-address.js';
export type { NetworkAddressAllowance, NetworkAddressVerdict } from './network-policy.js';
export { checkHostAddresses, matchesDomainPattern, normalizeHost } from './network-policy.js';
