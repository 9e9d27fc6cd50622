// Everything exported here is public: the session event log's contract. Every event core
// persists is one member of the `SessionEvent` union; readers switch on `type`.
export type { DeepReadonly } from './deep-readonly.js';
export { eventEnvelopeShape, type EventEnvelope } from './event-envelope.js';
export {
  artifactReferenceRecordSchema,
  failureRecordSchema,
  todoItemRecordSchema,
  tokenUsageRecordSchema,
  toolDisplayRecordSchema,
  toolResultRecordSchema,
  toolResultStatusSchema,
  type ArtifactReferenceRecord,
  type FailureRecord,
  type TodoItemRecord,
  type TokenUsageRecord,
  type ToolDisplayRecord,
  type ToolResultRecord,
  type ToolResultStatusRecord,
} from './recorded-shapes.js';
export {
  sessionCreatedEventSchema,
  sessionForkedEventSchema,
  sessionRecoveredEventSchema,
  sessionRestoredEventSchema,
  todosUpdatedEventSchema,
  type SessionCreatedEvent,
  type SessionForkedEvent,
  type SessionRecoveredEvent,
  type SessionRestoredEvent,
  type TodosUpdatedEvent,
} from './session-events.js';
export {
  backgroundNotifiedEventSchema,
  turnCompletedEventSchema,
  turnStartedEventSchema,
  turnStatusSchema,
  type BackgroundNotifiedEvent,
  type TurnCompletedEvent,
  type TurnStartedEvent,
  type TurnStatusRecord,
} from './turn-events.js';
export {
  assistantMessageEventSchema,
  finishReasonSchema,
  requestCompletedEventSchema,
  requestFailedEventSchema,
  requestStartedEventSchema,
  type AssistantMessageEvent,
  type RequestCompletedEvent,
  type RequestFailedEvent,
  type RequestStartedEvent,
} from './request-events.js';
export {
  approvalRequestedEventSchema,
  approvalResolvedEventSchema,
  toolCompletedEventSchema,
  toolDecisionEventSchema,
  toolProgressEventSchema,
  toolStartedEventSchema,
  type ApprovalRequestedEvent,
  type ApprovalResolvedEvent,
  type ToolCompletedEvent,
  type ToolDecisionEvent,
  type ToolProgressEvent,
  type ToolStartedEvent,
} from './tool-call-events.js';
export {
  retentionCompletedEventSchema,
  retentionFailedEventSchema,
  type RetentionCompletedEvent,
  type RetentionFailedEvent,
} from './retention-events.js';
export { contextCompactedEventSchema, type ContextCompactedEvent } from './context-events.js';
export {
  SESSION_EVENT_TYPES,
  isSessionEvent,
  readSessionEvent,
  recordedSessionEventSchema,
  sessionEventSchema,
  unrecognizedSessionEventSchema,
  type NewSessionEvent,
  type NewSessionEventOf,
  type RecordedSessionEvent,
  type SessionEvent,
  type SessionEventOf,
  type SessionEventType,
  type StoredSessionEvent,
  type UnrecognizedSessionEvent,
} from './session-event.js';
