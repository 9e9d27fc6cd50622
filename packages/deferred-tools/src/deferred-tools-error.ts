import { ClawsmithError } from '@clawsmith/tool-protocol';

/** The error codes this package throws, beside the result codes it returns. */
export const DEFERRED_TOOLS_ERROR_CODES = Object.freeze({
  /** The tool list given to the catalog cannot be used (duplicate name, bad name, deferred `search_tools`). */
  invalidToolCatalog: 'invalid_tool_catalog',
  /** A persisted activation state is not one {@link SessionActivation.toJSON} wrote. */
  invalidActivationState: 'invalid_activation_state',
  /** A name given to `SessionActivation.activate` is not a usable tool name. */
  invalidToolName: 'invalid_tool_name',
} as const);

/** Thrown by `createDeferredToolCatalog` when the tool list cannot be used. A startup error. */
export class InvalidToolCatalogError extends ClawsmithError {
  constructor(message: string) {
    super(DEFERRED_TOOLS_ERROR_CODES.invalidToolCatalog, message);
    this.name = 'InvalidToolCatalogError';
  }
}

/**
 * Thrown by `SessionActivation.fromJSON` for a value it did not write. Retrying the same value
 * cannot succeed; start the session with an empty activation (the model searches again).
 */
export class InvalidActivationStateError extends ClawsmithError {
  constructor(problem: string) {
    super(
      DEFERRED_TOOLS_ERROR_CODES.invalidActivationState,
      `The stored tool activation cannot be read: ${problem}. Start from an empty activation (new SessionActivation()); the model will activate tools again with search_tools.`,
    );
    this.name = 'InvalidActivationStateError';
  }
}

/** Thrown by `SessionActivation.activate` for a value that cannot be a tool name. */
export class InvalidToolNameError extends ClawsmithError {
  constructor(problem: string) {
    super(
      DEFERRED_TOOLS_ERROR_CODES.invalidToolName,
      `Cannot activate ${problem}. Pass tool names as the catalog lists them.`,
    );
    this.name = 'InvalidToolNameError';
  }
}
