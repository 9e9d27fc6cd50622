import type { ModelMessage } from '@clawsmith/providers';
import type { ToolResultMetadata, ToolResultStatus } from '@clawsmith/tool-protocol';

/** A message as the API serves it: tool messages always carry a `toolResult`, inferred when the stored one has none. */
export type TranscriptMessage =
  | (ModelMessage & { readonly position: number })
  | {
      readonly position: number;
      readonly role: 'tool';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly content: string;
      readonly toolResult: ToolResultMetadata;
      /** True when `toolResult` was inferred from the content (a session written before results were structured). */
      readonly statusInferred: boolean;
    };

/**
 * Content prefixes that older clawsmith versions wrote for results that were not a success,
 * before tool messages carried a structured `toolResult`. Checked in order; the first that
 * matches decides. Anything else was a success.
 */
const LEGACY_PREFIXES: readonly {
  readonly pattern: RegExp;
  readonly status: ToolResultStatus;
  readonly code?: string;
}[] = [
  { pattern: /^(permission denied|denied|hook denied)\b/i, status: 'denied' },
  { pattern: /^(cancelled|canceled)\b/i, status: 'cancelled', code: 'cancelled' },
  { pattern: /^(unknown|interrupted)\b/i, status: 'unknown', code: 'interrupted' },
  { pattern: /^(error|failed|tool error)\b/i, status: 'error' },
];

/** The status of a legacy tool message, from its content prefix. */
export function inferToolResult(content: string): ToolResultMetadata {
  const start = content.trimStart().slice(0, 64);
  for (const prefix of LEGACY_PREFIXES) {
    if (prefix.pattern.test(start))
      return { version: 1, status: prefix.status, ...(prefix.code ? { code: prefix.code } : {}) };
  }
  return { version: 1, status: 'success' };
}

/** The message as served: structured results as stored, legacy ones with an inferred status. */
export function toTranscriptMessage(message: ModelMessage, position: number): TranscriptMessage {
  if (message.role !== 'tool') return { ...message, position };
  const stored = (message as { toolResult?: ToolResultMetadata }).toolResult;
  if (stored && typeof stored === 'object' && typeof stored.status === 'string')
    return { ...message, position, toolResult: stored, statusInferred: false };
  return {
    position,
    role: 'tool',
    toolCallId: message.toolCallId,
    toolName: message.toolName,
    content: typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
    toolResult: inferToolResult(String(message.content ?? '')),
    statusInferred: true,
  };
}
