import { ClawsmithError } from '@clawsmith/tool-protocol';

/** The codes of {@link ProviderError}, with whether a retry of the same request can help. */
export const PROVIDER_ERROR_CODES = Object.freeze({
  /** 429: the vendor's rate limit. Retryable after a pause. */
  rateLimited: 'provider_rate_limited',
  /** 5xx, 408, 409, a timeout, a refused connection or a stream cut short. Retryable. */
  unavailable: 'provider_unavailable',
  /** 401 or 403: the key is wrong or lacks access. Not retryable. */
  authFailed: 'provider_auth_failed',
  /** Another 4xx: the request itself was refused (unknown model, too long a prompt). Not retryable. */
  badRequest: 'provider_bad_request',
  /** A 400/413 saying the request is longer than the model's context window (OpenAI `context_length_exceeded`, Anthropic "prompt is too long", the same from local servers). Not retryable unchanged: make the conversation shorter first. */
  contextTooLong: 'provider_context_too_long',
  /** The caller aborted. Not retryable (the caller asked to stop). */
  cancelled: 'provider_cancelled',
  /** The server answered with something that is not the vendor's protocol. Not retryable. */
  protocolError: 'provider_protocol_error',
  /** No API key was configured. Not retryable until one is set. */
  missingApiKey: 'provider_missing_api_key',
  /** Anything else the SDK threw. Not retryable. */
  failed: 'provider_failed',
} as const);

/** One of {@link PROVIDER_ERROR_CODES}. */
export type ProviderErrorCode = (typeof PROVIDER_ERROR_CODES)[keyof typeof PROVIDER_ERROR_CODES];

const RETRYABLE_CODES: ReadonlySet<string> = new Set([
  PROVIDER_ERROR_CODES.rateLimited,
  PROVIDER_ERROR_CODES.unavailable,
]);

/** Options of a {@link ProviderError}. */
export interface ProviderErrorOptions {
  /** The HTTP status the vendor answered, when there was one. */
  readonly status?: number;
  /** The underlying SDK error, kept for logs. */
  readonly cause?: unknown;
}

/**
 * A failure talking to a model. `code` says what kind, `retryable` whether sending the same
 * request later can succeed (the SDK has already retried rate limits and 5xx `maxRetries` times).
 */
export class ProviderError extends ClawsmithError {
  /** The adapter that failed (`openai`, `anthropic`, `scripted`). */
  readonly provider: string;
  /** The HTTP status, when the vendor answered with one. */
  readonly status: number | undefined;

  constructor(provider: string, code: ProviderErrorCode, message: string, options: ProviderErrorOptions = {}) {
    super(code, message, { retryable: RETRYABLE_CODES.has(code), cause: options.cause });
    this.name = 'ProviderError';
    this.provider = provider;
    this.status = options.status;
  }
}

/** The code for an HTTP error status from a vendor's API. */
export function providerCodeForStatus(status: number): ProviderErrorCode {
  if (status === 429) return PROVIDER_ERROR_CODES.rateLimited;
  if (status === 401 || status === 403) return PROVIDER_ERROR_CODES.authFailed;
  if (status >= 500 || status === 408 || status === 409) return PROVIDER_ERROR_CODES.unavailable;
  if (status >= 400) return PROVIDER_ERROR_CODES.badRequest;
  return PROVIDER_ERROR_CODES.failed;
}

/** The code for an error reported inside a stream, by the vendor's error type (no HTTP status). */
export function providerCodeForErrorType(type: string | undefined): ProviderErrorCode {
  if (type === undefined) return PROVIDER_ERROR_CODES.failed;
  if (/rate_limit/.test(type)) return PROVIDER_ERROR_CODES.rateLimited;
  if (/overloaded|server_error|api_error|timeout/.test(type)) return PROVIDER_ERROR_CODES.unavailable;
  if (/authentication|permission/.test(type)) return PROVIDER_ERROR_CODES.authFailed;
  if (/invalid_request|not_found|request_too_large/.test(type)) return PROVIDER_ERROR_CODES.badRequest;
  return PROVIDER_ERROR_CODES.failed;
}

const NEXT_STEP: Record<ProviderErrorCode, string> = {
  provider_rate_limited: 'Wait and send the request again, or lower the request rate.',
  provider_unavailable:
    'The service may recover: send the request again later, or check that the base URL points at a running server.',
  provider_auth_failed: 'Check the API key (and that it may use this model).',
  provider_bad_request:
    'Check the model name, the base URL and the size of the conversation; sending it unchanged will fail again.',
  provider_context_too_long:
    "Shorten the conversation (compact it) or raise the model's context window; sending it unchanged will fail again.",
  provider_cancelled: 'The request was aborted by its caller.',
  provider_protocol_error: 'Check that the base URL points at a server that speaks this API.',
  provider_missing_api_key: 'Set the API key.',
  provider_failed: 'See the cause for details.',
};

/** A {@link ProviderError} whose message ends with what to do next for its code. */
export function providerError(
  provider: string,
  code: ProviderErrorCode,
  what: string,
  options: ProviderErrorOptions = {},
): ProviderError {
  return new ProviderError(provider, code, `${provider}: ${what}. ${NEXT_STEP[code]}`, options);
}
