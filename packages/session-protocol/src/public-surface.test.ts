import { describe, expect, it } from 'vitest';
import * as publicApi from './index.js';

describe('the public surface of @clawsmith/session-protocol', () => {
  it('exports exactly these values', () => {
    expect(Object.keys(publicApi).sort()).toEqual([
      'SESSION_EVENT_TYPES',
      'approvalRequestedEventSchema',
      'approvalResolvedEventSchema',
      'artifactReferenceRecordSchema',
      'assistantMessageEventSchema',
      'backgroundNotifiedEventSchema',
      'contextCompactedEventSchema',
      'eventEnvelopeShape',
      'failureRecordSchema',
      'finishReasonSchema',
      'isSessionEvent',
      'readSessionEvent',
      'recordedSessionEventSchema',
      'requestCompletedEventSchema',
      'requestFailedEventSchema',
      'requestStartedEventSchema',
      'retentionCompletedEventSchema',
      'retentionFailedEventSchema',
      'sessionCreatedEventSchema',
      'sessionEventSchema',
      'sessionForkedEventSchema',
      'sessionRecoveredEventSchema',
      'sessionRestoredEventSchema',
      'todoItemRecordSchema',
      'todosUpdatedEventSchema',
      'tokenUsageRecordSchema',
      'toolCompletedEventSchema',
      'toolDecisionEventSchema',
      'toolDisplayRecordSchema',
      'toolProgressEventSchema',
      'toolResultRecordSchema',
      'toolResultStatusSchema',
      'toolStartedEventSchema',
      'turnCompletedEventSchema',
      'turnStartedEventSchema',
      'turnStatusSchema',
      'unrecognizedSessionEventSchema',
    ]);
  });

  it('names these event types, a changeset for any change', () => {
    expect(publicApi.SESSION_EVENT_TYPES).toEqual([
      'session.created',
      'session.forked',
      'session.restored',
      'session.recovered',
      'todos.updated',
      'turn.started',
      'turn.completed',
      'background.notified',
      'request.started',
      'request.completed',
      'request.failed',
      'assistant.message',
      'tool.decision',
      'approval.requested',
      'approval.resolved',
      'tool.started',
      'tool.progress',
      'tool.completed',
      'retention.completed',
      'retention.failed',
      'context.compacted',
    ]);
  });
});
