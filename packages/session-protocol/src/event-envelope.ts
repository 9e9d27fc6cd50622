import { z } from 'zod';

/**
 * The fields every persisted event carries, whatever its type. `--json` prints them beside the
 * event's own fields at the top level.
 */
export const eventEnvelopeShape = {
  /** The session the event belongs to. */
  sessionId: z.string(),
  /** The turn it belongs to, or `null` for session-level events. */
  turnId: z.string().nullable(),
  /** Per-session sequence number, from 1, without gaps. */
  sequence: z.number().int().positive(),
  /** ISO timestamp of the append. */
  createdAt: z.string(),
};

/** The envelope of a persisted event. */
export interface EventEnvelope {
  /** The session the event belongs to. */
  readonly sessionId: string;
  /** The turn it belongs to, or `null` for session-level events. */
  readonly turnId: string | null;
  /** Per-session sequence number, from 1, without gaps. */
  readonly sequence: number;
  /** ISO timestamp of the append. */
  readonly createdAt: string;
}
