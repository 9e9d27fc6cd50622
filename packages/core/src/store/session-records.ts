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
  /** When it was created (ISO 8601). */
  readonly createdAt: string;
  /** When it last changed (ISO 8601). */
  readonly updatedAt: string;
}

export type { NewSessionEvent, SessionEvent, SessionEventType } from '@clawsmith/session-protocol';

/** A todo item of a session (`todo_write` replaces the whole list). */
export interface TodoItem {
  /** What is to be done. */
  readonly content: string;
  /** Where it stands. */
  readonly status: 'pending' | 'in_progress' | 'completed';
}

/** A turn as stored by core (its files live in the checkpoint store). */
export interface TurnRecord {
  /** The session it belongs to. */
  readonly sessionId: string;
  /** Opaque id. */
  readonly turnId: string;
  /** 1 for the session's first turn. */
  readonly ordinal: number;
  /** The person's prompt that started it. */
  readonly prompt: string;
  /** Running, or how it ended (`interrupted`: its process died and recovery closed it). */
  readonly status: 'running' | 'completed' | 'incomplete' | 'cancelled' | 'failed' | 'step_limit' | 'interrupted';
  /** Deferred tools active when the turn started (restored by a session restore). */
  readonly activation: readonly string[];
  /** The process that ran the turn; recovery leaves a running turn alone while it lives. */
  readonly ownerPid: number;
  /** The host that ran it, or `null` for a turn recorded before turns were claimed per host. */
  readonly ownerHost: string | null;
  /**
   * The process instance (one per AgentCore) that ran it; while it runs, the session's claim
   * names the same instance. `null` for a turn recorded before claims (judged by its pid).
   */
  readonly ownerInstance: string | null;
  /** When it started (ISO 8601). */
  readonly startedAt: string;
  /** When it ended (ISO 8601), or `null` while it runs. */
  readonly completedAt: string | null;
}

/** A turn whose conversation a session restore cut: what it was, and when it was undone. */
export interface UndoneTurnRecord extends TurnRecord {
  /** When a session restore took it out of the conversation (ISO 8601). */
  readonly undoneAt: string;
}

/** A call waiting for a person's approval. */
export interface PendingApproval {
  /** The approval id to answer it by. */
  readonly id: string;
  /** The session of the call. */
  readonly sessionId: string;
  /** The turn of the call. */
  readonly turnId: string;
  /** The call that waits. */
  readonly toolCallId: string;
  /** The tool it calls. */
  readonly toolName: string;
  /** What the call does, in one line. */
  readonly summary: string;
  /** Its effective risk. */
  readonly risk: string;
  /** Why the policy asks. */
  readonly reason: string;
  /** When it was asked (ISO 8601). */
  readonly createdAt: string;
}
