// The answers the page reads, as the server sends them (see the package README's API table).
// Events and the tool results inside them are the session event contract's own types.
import type { EventPage, SessionStatus, SessionSummary } from '../../../src/api/api-schemas.js';

export type { EventPage, SessionStatus, SessionSummary };
export type {
  SessionEvent,
  SessionEventOf,
  TodoItemRecord as TodoItem,
  ToolDisplayRecord as ToolDisplay,
  ToolResultRecord as ToolResult,
  ToolResultStatusRecord as ToolStatus,
} from '@clawsmith/session-protocol';

export interface ManifestFile {
  readonly path: string;
  readonly change: string;
  readonly entry: string;
  readonly linesAdded: number | null;
  readonly linesRemoved: number | null;
  readonly binary: boolean;
}

export interface TurnSummary {
  readonly turnId: string;
  readonly ordinal: number;
  readonly prompt: string;
  readonly status: string;
  readonly startedAt: string;
  readonly completedAt: string | null;
  readonly checkpoint: {
    readonly undone: boolean;
    /** Creation order of the restore point in its session (a files restore reverts this one and every higher). */
    readonly sequence: number;
    readonly files: readonly ManifestFile[];
    readonly totals: { readonly files: number; readonly linesAdded: number; readonly linesRemoved: number } | null;
  } | null;
}

/** A turn an earlier conversation restore took out, whose files are still in place (and so a files restore can still put back). */
export interface CutTurnSummary extends TurnSummary {
  readonly conversationUndoneAt: string;
}

export interface FileDiff {
  readonly path: string;
  readonly change: string;
  readonly binary: boolean;
  readonly unifiedDiff: string;
  readonly diffTruncated: boolean;
}

export interface PendingApproval {
  readonly id: string;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly summary: string;
  readonly risk: string;
  readonly reason: string;
  readonly answerableHere: boolean;
  readonly input?: unknown;
}

export type RestoreScope = 'session' | 'files' | 'all';
