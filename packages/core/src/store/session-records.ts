/** A session as stored: one conversation in one workspace. */
export interface SessionRecord {
  /** Opaque id. */
  readonly id: string;
  /** Absolute path of the workspace the session works in. */
  readonly workspaceRoot: string;
  /** A short title (the first prompt, bounded), when known. */
  readonly title: string | null;
  /** The session this one was forked from, if any. */
  readonly parentSessionId: string | null;
  /** The parent's turn the fork was taken after, if any. */
  readonly forkedAtTurnId: string | null;
  /** ISO timestamps. */
  readonly createdAt: string;
  readonly updatedAt: string;
}

export type { NewSessionEvent, SessionEvent, SessionEventType } from '@clawsmith/session-protocol';

/** A todo item of a session (`todo_write` replaces the whole list). */
export interface TodoItem {
  readonly content: string;
  readonly status: 'pending' | 'in_progress' | 'completed';
}

/** A turn as stored by core (its files live in the checkpoint store). */
export interface TurnRecord {
  readonly sessionId: string;
  readonly turnId: string;
  /** 1 for the session's first turn. */
  readonly ordinal: number;
  readonly prompt: string;
  readonly status: 'running' | 'completed' | 'incomplete' | 'cancelled' | 'failed' | 'step_limit' | 'interrupted';
  /** Deferred tools active when the turn started (restored by a session restore). */
  readonly activation: readonly string[];
  /** The process that ran the turn; recovery leaves a running turn alone while it lives. */
  readonly ownerPid: number;
  readonly startedAt: string;
  readonly completedAt: string | null;
}

/** A turn whose conversation a session restore cut: what it was, and when it was undone. */
export interface UndoneTurnRecord extends TurnRecord {
  readonly undoneAt: string;
}

/** A call waiting for a person's approval. */
export interface PendingApproval {
  readonly id: string;
  readonly sessionId: string;
  readonly turnId: string;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly summary: string;
  readonly risk: string;
  readonly reason: string;
  readonly createdAt: string;
}
