import type { ArtifactReference } from './artifact-reference.js';
import type { ToolDisplay } from './tool-display.js';

/**
 * How a tool call ended.
 * - `success`: the call completed and returned an observation. For a command: it exited 0.
 * - `error`: arguments, the tool, or storage around it failed in a way that can be reported; a
 *   command that exited non-zero (`command_failed`, with `exitCode`) or hit its timeout
 *   (`command_timeout`), its output still the content.
 * - `denied`: a hook or the permission policy refused; the tool was never entered.
 * - `cancelled`: cancellation was observed at the tool boundary. For a tool with side effects
 *   recovery still treats the outcome as unknown: cancelling does not undo what already happened.
 * - `unknown`: synthesised only by recovery, for a call that started and has no trustworthy
 *   completion. Never produced by an ordinary tool path.
 */
export type ToolResultStatus = 'success' | 'error' | 'denied' | 'cancelled' | 'unknown';

/** Every {@link ToolResultStatus}. */
export const TOOL_RESULT_STATUSES: readonly ToolResultStatus[] = Object.freeze([
  'success',
  'error',
  'denied',
  'cancelled',
  'unknown',
] as const);

/**
 * The codes the runtime itself produces on the path of one call (see the README's code table for
 * the meaning of each and the codes that packages add for their own refusals).
 */
export const TOOL_RESULT_CODES = Object.freeze({
  /** No tool of that name exists. Not retryable. */
  unknownTool: 'unknown_tool',
  /** A deferred tool that is not active this session. Retryable after `search_tools`. */
  inactiveTool: 'inactive_tool',
  /** A tool call id already used in this turn, or the identical call twice in one assistant message. */
  duplicateCall: 'duplicate_call',
  /** The arguments text is not JSON. Retryable. */
  invalidJson: 'invalid_json',
  /** The arguments failed the tool's schema. Retryable. */
  invalidArguments: 'invalid_arguments',
  /** A hook refused the call (or failed, which refuses). Not retryable. */
  hookDenied: 'hook_denied',
  /** The permission policy or the person refused the call. Not retryable. */
  permissionDenied: 'permission_denied',
  /** Cancellation observed at the tool boundary. */
  cancelled: 'cancelled',
  /** The tool threw an error that carries no code of its own. */
  toolFailed: 'tool_failed',
  /** The process ended while the call ran; the outcome is unknown. Not retryable. */
  interrupted: 'interrupted',
  /** A side-effect tool ran without `authorized: true`: only a host that skips core's lifecycle sees it. */
  unauthorized: 'unauthorized',
  /** The call came after the per-message cap on tool calls and did not run. Retryable in a later message. */
  tooManyToolCalls: 'too_many_tool_calls',
  /** The call's id or tool name is empty or longer than the protocol allows; it did not run. */
  invalidToolCall: 'invalid_tool_call',
} as const);

/** One of the runtime's own {@link TOOL_RESULT_CODES}. */
export type ToolResultCode = (typeof TOOL_RESULT_CODES)[keyof typeof TOOL_RESULT_CODES];

/**
 * Everything about a result except the model-facing text. Persisted beside the message
 * (`toolResult`) and in the `tool.completed` event.
 */
export interface ToolResultMetadata {
  /** Version of this metadata shape. */
  readonly version: 1;
  /** How the call ended. */
  readonly status: ToolResultStatus;
  /** Stable machine-readable reason, for anything but a plain success. */
  readonly code?: string;
  /** True only where retrying is safe by protocol (fixable JSON, activate then call). */
  readonly retryable?: boolean;
  /** Projection for UIs; never replaces `content`. */
  readonly display?: ToolDisplay;
  /** Where the full output went when it was too large to keep inline. */
  readonly artifact?: ArtifactReference;
  /** For a tool that ran a process: its exit code, when it exited (absent when killed by a signal). */
  readonly exitCode?: number;
  /** For a tool that ran a process: how long it ran, in milliseconds. */
  readonly durationMs?: number;
}

/** A tool result: its metadata and the safe text projection the model sees. */
export interface ToolExecutionResult extends ToolResultMetadata {
  /** The text sent to the model. */
  readonly content: string;
}

/** Optional parts of a result built by {@link toolSuccess}, {@link toolError} and {@link toolDenied}. */
export interface ToolResultExtras {
  /** Projection for UIs. */
  readonly display?: ToolDisplay;
  /** Reference to externalised output. */
  readonly artifact?: ArtifactReference;
  /** Whether a retry is safe by protocol. */
  readonly retryable?: boolean;
  /** A process's exit code. */
  readonly exitCode?: number;
  /** How long a process ran, in milliseconds. */
  readonly durationMs?: number;
}

function withExtras(base: ToolExecutionResult, extras: ToolResultExtras | undefined): ToolExecutionResult {
  if (!extras) return base;
  return {
    ...base,
    ...(extras.retryable !== undefined ? { retryable: extras.retryable } : {}),
    ...(extras.display ? { display: extras.display } : {}),
    ...(extras.artifact ? { artifact: extras.artifact } : {}),
    ...(extras.exitCode !== undefined ? { exitCode: extras.exitCode } : {}),
    ...(extras.durationMs !== undefined ? { durationMs: extras.durationMs } : {}),
  };
}

/** A `success` result with `content` for the model. */
export function toolSuccess(content: string, extras?: Omit<ToolResultExtras, 'retryable'>): ToolExecutionResult {
  return withExtras({ version: 1, status: 'success', content }, extras);
}

/** An `error` result with a stable `code` and a message that says what to do next. */
export function toolError(code: string, content: string, extras?: ToolResultExtras): ToolExecutionResult {
  return withExtras({ version: 1, status: 'error', code, retryable: false, content }, extras);
}

/** A `denied` result: the tool was never entered. Never retryable. */
export function toolDenied(
  code: string,
  content: string,
  extras?: Omit<ToolResultExtras, 'retryable'>,
): ToolExecutionResult {
  return withExtras({ version: 1, status: 'denied', code, retryable: false, content }, extras);
}

/** A `cancelled` result. */
export function toolCancelled(
  content = 'The tool call was cancelled.',
  extras?: Omit<ToolResultExtras, 'retryable'>,
): ToolExecutionResult {
  return withExtras(
    { version: 1, status: 'cancelled', code: TOOL_RESULT_CODES.cancelled, retryable: false, content },
    extras,
  );
}

/** The metadata part of a result, without its content. */
export function resultMetadata(result: ToolExecutionResult): ToolResultMetadata {
  const { content: _content, ...metadata } = result;
  return metadata;
}
