// Everything exported here is the public API of @clawsmith/deferred-tools; the surface is pinned
// by public-surface.test.ts. A change to this list is a deliberate change with a changeset.

export type {
  DeferredToolCatalog,
  DeferredToolCatalogOptions,
  ToolGate,
  ToolSearchMatch,
} from './deferred-tool-catalog.js';
export { SEARCH_TOOLS_NAME, createDeferredToolCatalog } from './deferred-tool-catalog.js';

export type { SearchField } from './search-index.js';
export { PREFIX_MATCH_FACTOR, SEARCH_FIELDS, SEARCH_FIELD_WEIGHTS } from './search-index.js';

export type { SearchTextLimits } from './search-text.js';
export { DEFAULT_SEARCH_TEXT_LIMITS } from './search-text.js';

export type { ActivationChange, ActivationListener, SessionActivationState } from './session-activation.js';
export { SessionActivation } from './session-activation.js';

export { checkToolCall, gateResult, inactiveToolResult, unknownToolResult } from './tool-gate.js';

export type { SearchToolsInput, SearchToolsOptions } from './search-tools-tool.js';
export { createSearchToolsTool } from './search-tools-tool.js';

export type { RequestTools, RequestToolsEvidence } from './compose-request-tools.js';
export { MAX_DEFERRED_DESCRIPTION_LENGTH, composeRequestTools } from './compose-request-tools.js';

export { MAX_TOOL_NAME_LENGTH } from './tool-name.js';
export {
  DEFERRED_TOOLS_ERROR_CODES,
  InvalidActivationStateError,
  InvalidToolCatalogError,
  InvalidToolNameError,
} from './deferred-tools-error.js';
