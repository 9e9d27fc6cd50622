const CLAWSMITH_ERROR_MARKER = Symbol.for('@clawsmith/error');

/** Options of a {@link ClawsmithError}. */
export interface ClawsmithErrorOptions {
  /** Whether retrying the same operation unchanged can succeed. Default false. */
  readonly retryable?: boolean;
  /** The underlying error, kept for logs; never shown to the model. */
  readonly cause?: unknown;
}

/**
 * The base of every error clawsmith packages throw. `code` is a stable string that callers
 * branch on; `message` says what happened and what to do next. Identity survives two installed
 * copies of this package: test with {@link ClawsmithError.isInstance}, not `instanceof`.
 */
export class ClawsmithError extends Error {
  /** Stable machine-readable code, for example `path_outside_workspace`. */
  readonly code: string;
  /** Whether retrying unchanged can succeed. */
  readonly retryable: boolean;
  private readonly [CLAWSMITH_ERROR_MARKER] = true;

  constructor(code: string, message: string, options: ClawsmithErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ClawsmithError';
    this.code = code;
    this.retryable = options.retryable ?? false;
  }

  /** Whether `value` is a ClawsmithError from any installed copy of this package. */
  static isInstance(value: unknown): value is ClawsmithError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[CLAWSMITH_ERROR_MARKER] === true &&
      typeof (value as { code?: unknown }).code === 'string'
    );
  }
}

/** Thrown by {@link assertAuthorized} when a side-effect tool runs without authorisation. */
export class UnauthorizedToolError extends ClawsmithError {
  constructor(action: string) {
    super('unauthorized', `Tool ${action} requires explicit authorization`);
    this.name = 'UnauthorizedToolError';
  }
}
