// Test support: an event as a reader of the log gets it, checked against the event contract.
import { readSessionEvent, type NewSessionEvent, type SessionEvent } from '@clawsmith/session-protocol';

let sequence = 0;

/** `fields` with an envelope, read back through the contract; throws when they are not a valid event. */
export function recordedEvent(fields: NewSessionEvent): SessionEvent {
  sequence += 1;
  const event = readSessionEvent({
    sessionId: 'session-1',
    createdAt: '2026-12-06T00:00:00.000Z',
    sequence,
    ...fields,
    turnId: fields.turnId ?? 'turn-1',
  });
  if (event.type === 'event.unrecognized') throw new Error(`not a valid ${fields.type} event: ${event.problem}`);
  return event;
}
