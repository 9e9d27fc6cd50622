import { z } from 'zod';
import type { DeepReadonly } from './deep-readonly.js';
import { eventEnvelopeShape } from './event-envelope.js';
import { todoItemRecordSchema } from './recorded-shapes.js';

/** A session began (the first event of every session). */
export const sessionCreatedEventSchema = z.object({
  type: z.literal('session.created'),
  ...eventEnvelopeShape,
  /** Absolute path of the workspace the session works in. */
  workspaceRoot: z.string(),
  /** For a subagent's session: the call that started it. */
  delegatedBy: z
    .object({
      /** The parent session. */
      sessionId: z.string(),
      /** The parent's turn. */
      turnId: z.string(),
      /** The delegating tool call. */
      toolCallId: z.string(),
      /** `task`, `worktree` or `background`. */
      kind: z.string(),
    })
    .optional(),
});

/** This session is a copy of another one's history (up to a turn); the original is unchanged. */
export const sessionForkedEventSchema = z.object({
  type: z.literal('session.forked'),
  ...eventEnvelopeShape,
  /** The session it was copied from. */
  parentSessionId: z.string(),
  /** The parent's turn the copy was taken after, or `null` for the whole history. */
  atTurnId: z.string().nullable(),
});

/** A turn was undone: its conversation, its files, or both (the envelope's `turnId` is the undone turn). */
export const sessionRestoredEventSchema = z.object({
  type: z.literal('session.restored'),
  ...eventEnvelopeShape,
  /** What was reverted. */
  scope: z.enum(['session', 'files', 'all']),
  /** Workspace paths put back. */
  restoredPaths: z.array(z.string()),
  /** Messages the conversation kept, when it was cut. */
  messageCount: z.number().optional(),
});

/** Recovery closed what a dead process left open. */
export const sessionRecoveredEventSchema = z.object({
  type: z.literal('session.recovered'),
  ...eventEnvelopeShape,
  /** Tool calls closed as `unknown` / `interrupted`. */
  interruptedCalls: z.number(),
  /** Command logs sealed at their last committed byte. */
  sealedArtifacts: z.number(),
  /** The turns closed as `interrupted`. */
  turns: z.array(z.string()),
});

/** The todo list was replaced. */
export const todosUpdatedEventSchema = z.object({
  type: z.literal('todos.updated'),
  ...eventEnvelopeShape,
  /** The whole new list. */
  todos: z.array(todoItemRecordSchema),
});

/** `session.created`. */
export type SessionCreatedEvent = DeepReadonly<z.infer<typeof sessionCreatedEventSchema>>;
/** `session.forked`. */
export type SessionForkedEvent = DeepReadonly<z.infer<typeof sessionForkedEventSchema>>;
/** `session.restored`. */
export type SessionRestoredEvent = DeepReadonly<z.infer<typeof sessionRestoredEventSchema>>;
/** `session.recovered`. */
export type SessionRecoveredEvent = DeepReadonly<z.infer<typeof sessionRecoveredEventSchema>>;
/** `todos.updated`. */
export type TodosUpdatedEvent = DeepReadonly<z.infer<typeof todosUpdatedEventSchema>>;
