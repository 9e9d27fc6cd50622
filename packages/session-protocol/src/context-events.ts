import { z } from 'zod';
import type { DeepReadonly } from './deep-readonly.js';
import { eventEnvelopeShape } from './event-envelope.js';
import { tokenUsageRecordSchema } from './recorded-shapes.js';

/**
 * The model's view of the conversation was compacted; the stored messages and events are
 * unchanged. Readers rebuild the view from the session's `context.compacted` events in order:
 * tool results of messages up to `prunedThroughMessage` are sent as stubs naming the call, its
 * size and its artifact; with `summary`, messages up to `summarizedThroughMessage` are sent as
 * that summary instead. A restore that cuts the event log before this event undoes it.
 */
export const contextCompactedEventSchema = z.object({
  type: z.literal('context.compacted'),
  ...eventEnvelopeShape,
  /** `threshold` (the next request would pass the limit), `overflow` (the provider said the request was too long), `manual` (`/compact` or the API). */
  reason: z.enum(['threshold', 'overflow', 'manual']),
  /** Tool results in messages at positions 1..N (the stored order, from 1) are stubs from now on. */
  prunedThroughMessage: z.number(),
  /** Tool results this compaction turned into stubs. */
  prunedToolResults: z.number(),
  /** Artifacts this compaction stored for pruned results whose full text was not in one yet. */
  artifacts: z.array(z.object({ toolCallId: z.string(), artifactId: z.string() })),
  /** With a summary: messages 1..N are sent as the summary instead. */
  summarizedThroughMessage: z.number().optional(),
  /** The model's summary of the messages it replaces. */
  summary: z.string().optional(),
  /** The context window the limit was computed from, in tokens. */
  contextWindow: z.number(),
  /** Estimated tokens of the next request before compaction. */
  tokensBefore: z.number(),
  /** Estimated tokens after. */
  tokensAfter: z.number(),
  /** Tokens the summary request used, when there was one; the turn's usage counts them too. */
  summaryUsage: tokenUsageRecordSchema.optional(),
  /** Milliseconds the compaction itself took: building views, estimating, storing artifacts; the summary request's time aside. */
  durationMs: z.number().optional(),
});

/** A `context.compacted` event. */
export type ContextCompactedEvent = DeepReadonly<z.infer<typeof contextCompactedEventSchema>>;
