import {
  PROVIDER_ERROR_CODES,
  ProviderError,
  providerCodeForErrorType,
  providerCodeForStatus,
  providerError,
} from './provider-error.js';

type ErrorClass = abstract new (...parameters: never[]) => Error;

/** The error classes an official vendor SDK exports; both SDKs share this shape. */
export interface SdkErrorClasses {
  /** An HTTP or in-stream error from the API. */
  readonly APIError: ErrorClass;
  /** The caller aborted. */
  readonly APIUserAbortError: ErrorClass;
  /** The request timed out. */
  readonly APIConnectionTimeoutError: ErrorClass;
  /** The connection failed. */
  readonly APIConnectionError: ErrorClass;
}

// Wordings of "the request is longer than the context window" across vendors and local servers.
const CONTEXT_TOO_LONG =
  /context_length_exceeded|prompt is too long|maximum context length|context (?:length|window|size)|too many tokens|exceeds? the (?:model's )?(?:context|max)/i;

/** Whether an HTTP error answer says the request did not fit the model's context window. */
function isContextTooLong(status: number, error: Error): boolean {
  if (status !== 400 && status !== 413) return false;
  const record = error as { code?: unknown; error?: { code?: unknown; error?: { code?: unknown } } };
  const codes = [record.code, record.error?.code, record.error?.error?.code];
  return codes.includes('context_length_exceeded') || CONTEXT_TOO_LONG.test(error.message);
}

function errorType(error: object): string | undefined {
  const record = error as { type?: unknown; error?: { type?: unknown; error?: { type?: unknown } } };
  for (const candidate of [record.type, record.error?.type, record.error?.error?.type]) {
    if (typeof candidate === 'string') return candidate;
  }
  return undefined;
}

/** Maps whatever an SDK call or stream threw to a {@link ProviderError} (kept as is if it is one). */
export function mapSdkError(provider: string, error: unknown, classes: SdkErrorClasses): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof classes.APIUserAbortError) {
    return providerError(provider, PROVIDER_ERROR_CODES.cancelled, 'the request was aborted', { cause: error });
  }
  if (error instanceof classes.APIConnectionTimeoutError) {
    return providerError(provider, PROVIDER_ERROR_CODES.unavailable, 'the request timed out', { cause: error });
  }
  if (error instanceof classes.APIConnectionError) {
    return providerError(provider, PROVIDER_ERROR_CODES.unavailable, `could not connect (${error.message})`, {
      cause: error,
    });
  }
  if (error instanceof classes.APIError) {
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number') {
      const code = isContextTooLong(status, error)
        ? PROVIDER_ERROR_CODES.contextTooLong
        : providerCodeForStatus(status);
      return providerError(provider, code, `the API answered ${error.message}`, {
        status,
        cause: error,
      });
    }
    const type = errorType(error);
    return providerError(provider, providerCodeForErrorType(type), `the stream reported an error: ${error.message}`, {
      cause: error,
    });
  }
  if (error instanceof SyntaxError) {
    return providerError(
      provider,
      PROVIDER_ERROR_CODES.protocolError,
      `the stream carried data that is not JSON (${error.message})`,
      { cause: error },
    );
  }
  if (error instanceof TypeError) {
    // Only SDK-shaped stream data is read in the adapters' loops: a TypeError there is a malformed event.
    return providerError(
      provider,
      PROVIDER_ERROR_CODES.protocolError,
      `the stream carried an event of an unexpected shape (${error.message})`,
      { cause: error },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return providerError(provider, PROVIDER_ERROR_CODES.failed, `the request failed: ${message}`, { cause: error });
}
