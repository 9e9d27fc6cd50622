import type { ModelMessage } from '@clawsmith/providers';
import type { CoreDatabase } from './core-tables.js';
import { insertMessages } from './session-messages.js';
import { insertApproval } from './session-approvals.js';
import type { NewSessionEvent, PendingApproval } from './session-records.js';
import { insertTurn, type NewTurn } from './session-turns.js';
import { setActivation } from './todos-and-activation.js';

/**
 * What one step of a turn writes at once: its events, the conversation's messages that go with
 * them, and the session's active deferred tools. One transaction (`SessionStore.recordStep`), so
 * neither a reader nor a crash finds a step's events without its messages.
 */
export interface TurnStep {
  /** The turn the messages belong to (each event names its own). */
  readonly turnId: string;
  /** The turn to record as started (running) with its first step. */
  readonly start?: NewTurn;
  /** Appended in this order after the session's last event. */
  readonly events: readonly NewSessionEvent[];
  /** Appended in this order after the session's last message. */
  readonly messages?: readonly ModelMessage[];
  /** The session's active deferred tools, saved with the step. */
  readonly activation?: readonly string[];
  /**
   * A call's request for a person's answer, listed with its `approval.requested` event: a reader
   * never finds the one without the other, and the asking process learns of the commit before
   * any request it serves can list the approval (so it is already waiting for the answer).
   */
  readonly approval?: PendingApproval;
}

/** The writes of `step` besides its events, to run inside the events' transaction. */
export function stepWrites(sessionId: string, step: TurnStep): (transaction: CoreDatabase) => Promise<void> {
  return async (transaction) => {
    if (step.start) await insertTurn(transaction, step.start);
    if (step.messages) await insertMessages(transaction, sessionId, step.turnId, step.messages);
    if (step.activation) await setActivation(transaction, sessionId, step.activation);
    if (step.approval) await insertApproval(transaction, step.approval);
  };
}
