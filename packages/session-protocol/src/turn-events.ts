import { z } from 'zod';
import type { DeepReadonly } from './deep-readonly.js';
import { eventEnvelopeShape } from './event-envelope.js';
import { failureRecordSchema, tokenUsageRecordSchema } from './recorded-shapes.js';

/** How a turn ended (`running` is never an event: it is the state between these). */
export const turnStatusSchema = z.enum(['completed', 'incomplete', 'cancelled', 'failed', 'step_limit', 'interrupted']);

/** One of the ways a turn ends. */
export type TurnStatusRecord = DeepReadonly<z.infer<typeof turnStatusSchema>>;

/** A turn began with a person's prompt. */
export const turnStartedEventSchema = z.object({
  type: z.literal('turn.started'),
  ...eventEnvelopeShape,
  /** What the person asked. */
  prompt: z.string(),
  /** The turn's restore point (every file change of the turn is recorded there). */
  restorePointId: z.string(),
});

/** A turn ended; recovery writes one with `recovered: true` and status `interrupted`. */
export const turnCompletedEventSchema = z.object({
  type: z.literal('turn.completed'),
  ...eventEnvelopeShape,
  /** How it ended. */
  status: turnStatusSchema,
  /** Model requests made. */
  steps: z.number().optional(),
  /** The turn's restore point. */
  restorePointId: z.string().optional(),
  /** What the turn changed in the workspace. */
  manifest: z
    .object({
      /** Files changed. */
      files: z.number(),
      /** Lines added over all text files. */
      linesAdded: z.number(),
      /** Lines removed over all text files. */
      linesRemoved: z.number(),
      /** The changed paths, workspace-relative. */
      paths: z.array(z.string()),
    })
    .optional(),
  /** Why the turn failed or stopped, when it did. */
  error: failureRecordSchema.optional(),
  /** Tokens of every model request of the turn, summed (absent on turns recorded before usage was kept). */
  usage: tokenUsageRecordSchema.optional(),
  /** Written by recovery for a turn whose process died. */
  recovered: z.literal(true).optional(),
});

/** Background subagents that finished since the last turn, delivered once before the prompt. */
export const backgroundNotifiedEventSchema = z.object({
  type: z.literal('background.notified'),
  ...eventEnvelopeShape,
  /** Each finished task: its id, the start of its prompt, and its structured result. */
  tasks: z.array(
    z.object({
      /** The child session's id. */
      taskId: z.string(),
      /** The first 200 characters of the task's prompt. */
      prompt: z.string(),
      /** The child's structured result, as `background_task_list` reports it. */
      result: z.unknown(),
    }),
  ),
});

/** `turn.started`. */
export type TurnStartedEvent = DeepReadonly<z.infer<typeof turnStartedEventSchema>>;
/** `turn.completed`. */
export type TurnCompletedEvent = DeepReadonly<z.infer<typeof turnCompletedEventSchema>>;
/** `background.notified`. */
export type BackgroundNotifiedEvent = DeepReadonly<z.infer<typeof backgroundNotifiedEventSchema>>;
