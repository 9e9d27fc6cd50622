import { boundText } from './bounded-text.js';
import { ClawsmithError } from './clawsmith-error.js';
import { redactSecrets } from './redact-secrets.js';
import { TOOL_RESULT_CODES, toolCancelled, type ToolExecutionResult } from './tool-result.js';

const MAX_ERROR_MESSAGE = 4_000;

function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

/**
 * The result for a tool call that threw. A {@link ClawsmithError} keeps its code and retryable
 * flag; an abort (or any error once `signal` is aborted) is `cancelled`; anything else is
 * `tool_failed`. The content is the error's message only, redacted and bounded: never a stack.
 */
export function toolResultFromError(error: unknown, signal?: AbortSignal): ToolExecutionResult {
  if (signal?.aborted || isAbortError(error)) return toolCancelled();
  let message: string;
  try {
    message =
      error instanceof Error || ClawsmithError.isInstance(error) ? String((error as Error).message) : String(error);
  } catch {
    message = 'The tool failed with an error that could not be read.';
  }
  const content = boundText(redactSecrets(message || 'The tool failed without a message.'), MAX_ERROR_MESSAGE);
  if (ClawsmithError.isInstance(error)) {
    return { version: 1, status: 'error', code: error.code, retryable: error.retryable === true, content };
  }
  return { version: 1, status: 'error', code: TOOL_RESULT_CODES.toolFailed, retryable: false, content };
}
