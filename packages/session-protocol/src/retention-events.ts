import { z } from 'zod';
import type { DeepReadonly } from './deep-readonly.js';
import { eventEnvelopeShape } from './event-envelope.js';

/** Why retention ran after this session's turn. */
const retentionReasonSchema = z.enum(['interval', 'quota']);

/** Retention pruned old and over-quota restore points and artifacts (figures only, no list). */
export const retentionCompletedEventSchema = z.object({
  type: z.literal('retention.completed'),
  ...eventEnvelopeShape,
  /** The interval came round, or this session went over a quota. */
  reason: retentionReasonSchema,
  /** Whether it only reported what it would remove. */
  dryRun: z.boolean(),
  /** How long it took. */
  durationMs: z.number(),
  /** Restore points removed. */
  restorePointsRemoved: z.number(),
  /** Stored file versions removed. */
  blobsRemoved: z.number(),
  /** Bytes they held. */
  blobBytesFreed: z.number(),
  /** Restore points kept. */
  restorePointsKept: z.number(),
  /** Bytes of file versions kept. */
  blobBytesKept: z.number(),
  /** Artifacts removed (when an artifact store was pruned too). */
  artifactsRemoved: z.number().optional(),
  /** Bytes they held. */
  artifactBytesFreed: z.number().optional(),
  /** Files with no artifact record, removed. */
  orphanFilesRemoved: z.number().optional(),
  /** Artifacts kept. */
  artifactsKept: z.number().optional(),
  /** Bytes kept. */
  artifactBytesKept: z.number().optional(),
});

/** Retention failed; the turn that triggered it was not affected. */
export const retentionFailedEventSchema = z.object({
  type: z.literal('retention.failed'),
  ...eventEnvelopeShape,
  /** Why it ran. */
  reason: retentionReasonSchema,
  /** What went wrong. */
  message: z.string(),
});

/** `retention.completed`. */
export type RetentionCompletedEvent = DeepReadonly<z.infer<typeof retentionCompletedEventSchema>>;
/** `retention.failed`. */
export type RetentionFailedEvent = DeepReadonly<z.infer<typeof retentionFailedEventSchema>>;
