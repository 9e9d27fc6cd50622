import { z } from 'zod';
import type { DeepReadonly } from './deep-readonly.js';
import { eventEnvelopeShape } from './event-envelope.js';
import { tokenUsageRecordSchema } from './recorded-shapes.js';

/**
 * A model request is about to be sent, with the evidence of what it exposed (tool names and the
 * hash of the exact schemas, the system prompt's hash and size) without copying any of it.
 */
export const requestStartedEventSchema = z.object({
  type: z.literal('request.started'),
  ...eventEnvelopeShape,
  /** Identifies the request in its `request.completed` / `request.failed`. */
  requestId: z.string(),
  /** The request's place in the turn, from 1. */
  step: z.number(),
  /** The tools sent, in the order sent. */
  toolNames: z.array(z.string()).optional(),
  /** SHA-256 of the canonical JSON of the schemas sent. */
  toolSchemaSha256: z.string().optional(),
  /** How the tool list was put together (deferred tools activated, always loaded, held back). */
  composition: z
    .object({
      /** Deferred tools sent because this session activated them. */
      activatedTools: z.array(z.string()),
      /** Deferred tools sent because they are always loaded. */
      alwaysLoadedTools: z.array(z.string()),
      /** Deferred tools held back. */
      heldBackCount: z.number(),
    })
    .optional(),
  /** SHA-256 of the system prompt sent, when there was one. */
  systemPromptSha256: z.string().optional(),
  /** Its size in bytes. */
  systemPromptBytes: z.number().optional(),
  /** The estimated size of the request in tokens, before it was sent. */
  estimatedInputTokens: z.number().optional(),
});

/** Why a model response ended. */
export const finishReasonSchema = z.enum(['stop', 'tool-calls', 'length', 'error', 'cancelled']);

/** The model answered. */
export const requestCompletedEventSchema = z.object({
  type: z.literal('request.completed'),
  ...eventEnvelopeShape,
  /** The request's id. */
  requestId: z.string(),
  /** Why the response ended. */
  finishReason: finishReasonSchema,
  /** Tool calls in the answer. */
  toolCallCount: z.number(),
  /** Tokens used, when the provider reported them. */
  usage: tokenUsageRecordSchema.optional(),
  /** The model that answered, as the provider's response named it (absent when it named none). */
  responseModel: z.string().optional(),
});

/** The request failed (or was cancelled: code `cancelled`). */
export const requestFailedEventSchema = z.object({
  type: z.literal('request.failed'),
  ...eventEnvelopeShape,
  /** The request's id. */
  requestId: z.string(),
  /** Stable code, e.g. `provider_bad_request`, `context_length_exceeded`, `cancelled`. */
  code: z.string(),
  /** What happened and what to do next. */
  message: z.string(),
  /** Whether the same request may succeed if sent again. */
  retryable: z.boolean(),
});

/** The model's answer: its text and the calls it asked for (their results follow as `tool.*`). */
export const assistantMessageEventSchema = z.object({
  type: z.literal('assistant.message'),
  ...eventEnvelopeShape,
  /** The answer's text (may be empty). */
  text: z.string(),
  /** The calls, by id and tool name. */
  toolCalls: z.array(z.object({ id: z.string(), name: z.string() })),
});

/** `request.started`. */
export type RequestStartedEvent = DeepReadonly<z.infer<typeof requestStartedEventSchema>>;
/** `request.completed`. */
export type RequestCompletedEvent = DeepReadonly<z.infer<typeof requestCompletedEventSchema>>;
/** `request.failed`. */
export type RequestFailedEvent = DeepReadonly<z.infer<typeof requestFailedEventSchema>>;
/** `assistant.message`. */
export type AssistantMessageEvent = DeepReadonly<z.infer<typeof assistantMessageEventSchema>>;
