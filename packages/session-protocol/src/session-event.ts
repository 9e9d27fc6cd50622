import { z } from 'zod';
import type { DeepReadonly } from './deep-readonly.js';
import { contextCompactedEventSchema } from './context-events.js';
import { eventEnvelopeShape, type EventEnvelope } from './event-envelope.js';
import {
  assistantMessageEventSchema,
  requestCompletedEventSchema,
  requestFailedEventSchema,
  requestStartedEventSchema,
} from './request-events.js';
import { retentionCompletedEventSchema, retentionFailedEventSchema } from './retention-events.js';
import {
  sessionCreatedEventSchema,
  sessionForkedEventSchema,
  sessionRecoveredEventSchema,
  sessionRestoredEventSchema,
  todosUpdatedEventSchema,
} from './session-events.js';
import {
  approvalRequestedEventSchema,
  approvalResolvedEventSchema,
  toolCompletedEventSchema,
  toolDecisionEventSchema,
  toolProgressEventSchema,
  toolStartedEventSchema,
} from './tool-call-events.js';
import { backgroundNotifiedEventSchema, turnCompletedEventSchema, turnStartedEventSchema } from './turn-events.js';

/** Every event type the log records, one schema each, discriminated by `type`. */
export const recordedSessionEventSchema = z.discriminatedUnion('type', [
  sessionCreatedEventSchema,
  sessionForkedEventSchema,
  sessionRestoredEventSchema,
  sessionRecoveredEventSchema,
  todosUpdatedEventSchema,
  turnStartedEventSchema,
  turnCompletedEventSchema,
  backgroundNotifiedEventSchema,
  requestStartedEventSchema,
  requestCompletedEventSchema,
  requestFailedEventSchema,
  assistantMessageEventSchema,
  toolDecisionEventSchema,
  approvalRequestedEventSchema,
  approvalResolvedEventSchema,
  toolStartedEventSchema,
  toolProgressEventSchema,
  toolCompletedEventSchema,
  retentionCompletedEventSchema,
  retentionFailedEventSchema,
  contextCompactedEventSchema,
]);

/** An event of a type this version knows, as written and as read back. */
export type RecordedSessionEvent = DeepReadonly<z.infer<typeof recordedSessionEventSchema>>;

/** The `type` of a {@link RecordedSessionEvent}. */
export type SessionEventType = RecordedSessionEvent['type'];

/** Every {@link SessionEventType}, in the order of the union. */
export const SESSION_EVENT_TYPES: readonly SessionEventType[] = Object.freeze(
  recordedSessionEventSchema.options.map((option) => option.shape.type.value),
);

/**
 * A stored row this version cannot read as any known event: a type written by a newer version,
 * or fields that no longer fit. It is never written; readers get it instead of an exception, so
 * a session with one odd row still opens and every sequence number is still delivered.
 */
export const unrecognizedSessionEventSchema = z.object({
  type: z.literal('event.unrecognized'),
  ...eventEnvelopeShape,
  /** The `type` the row was stored with. */
  recordedType: z.string(),
  /** The row's own fields, as stored. */
  payload: z.record(z.string(), z.unknown()),
  /** Why it did not read as a known event. */
  problem: z.string(),
});

/** The stand-in for a stored row this version cannot read (see {@link unrecognizedSessionEventSchema}). */
export type UnrecognizedSessionEvent = DeepReadonly<z.infer<typeof unrecognizedSessionEventSchema>>;

/**
 * What a reader of the log gets, as it travels (the web API's event pages and stream): a known
 * event, or the stand-in for a row this version cannot read.
 */
export const sessionEventSchema = z.discriminatedUnion('type', [
  recordedSessionEventSchema,
  unrecognizedSessionEventSchema,
]);

/** What a reader of the log gets: a known event, or the stand-in for a row it cannot read. */
export type SessionEvent = RecordedSessionEvent | UnrecognizedSessionEvent;

/** The event of one type. */
export type SessionEventOf<Type extends SessionEventType> = Extract<RecordedSessionEvent, { type: Type }>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * An event about to be appended: its type and own fields, and the turn it belongs to. The store
 * adds the session, the sequence and the time.
 */
export type NewSessionEvent = DistributiveOmit<RecordedSessionEvent, keyof EventEnvelope> & {
  /** The turn it belongs to; default `null`. */
  readonly turnId?: string | null;
};

/** A new event of one type. */
export type NewSessionEventOf<Type extends SessionEventType> = Extract<NewSessionEvent, { type: Type }>;

const KNOWN_TYPES = new Set<string>(SESSION_EVENT_TYPES);

/** A stored event before it is read: the envelope, its stored `type` and whatever fields it was written with. */
export type StoredSessionEvent = EventEnvelope & { readonly type: string } & Readonly<Record<string, unknown>>;

/**
 * Reads one stored event (envelope and own fields at the top level, as `--json` prints them):
 * the typed event, or an {@link UnrecognizedSessionEvent} that says why not. Never throws for a
 * row that has an envelope; fields a newer version added are dropped.
 */
export function readSessionEvent(stored: StoredSessionEvent): SessionEvent {
  const parsed = recordedSessionEventSchema.safeParse(stored);
  if (parsed.success) return parsed.data;
  const { type, sessionId, turnId, sequence, createdAt, ...payload } = stored;
  const problem = KNOWN_TYPES.has(type)
    ? parsed.error.issues
        .slice(0, 3)
        .map((issue) => `${issue.path.join('.') || '(event)'}: ${issue.message}`)
        .join('; ')
    : `no event type "${type}" in this version of clawsmith`;
  return { type: 'event.unrecognized', sessionId, turnId, sequence, createdAt, recordedType: type, payload, problem };
}

/** Narrows an event to one type. */
export function isSessionEvent<Type extends SessionEventType>(
  event: SessionEvent,
  type: Type,
): event is SessionEventOf<Type> {
  return event.type === type;
}
