// The answers the page reads, as the server sends them (see the package README's API table).
import type { EventPage, SessionStatus, SessionSummary } from '../../../src/api/api-schemas.js';

export type { EventPage, SessionStatus, SessionSummary };

/** One persisted event (the envelope plus the event's own fields). */
export interface SessionEvent {
  readonly type: string;
  readonly sessionId: string;
  readonly turnId: string | null;
  readonly sequence: number;
  readonly createdAt: string;
  readonly [field: string]: unknown;
}

export type ToolStatus = 'success' | 'error' | 'denied' | 'cancelled' | 'unknown';

export interface ToolDisplay {
  readonly kind: 'text' | 'command' | 'search' | 'diff' | 'artifact' | 'json';
  readonly title: string;
  readonly body?: string;
  readonly fields?: readonly { readonly label: string; readonly value: string }[];
}

export interface ToolResult {
  readonly status: ToolStatus;
  readonly code?: string;
  readonly display?: ToolDisplay;
  readonly artifact?: { readonly id: string; readonly lineCount?: number; readonly byteLength?: number };
  readonly exitCode?: number;
  readonly durationMs?: number;
}

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
    readonly files: readonly ManifestFile[];
    readonly totals: { readonly files: number; readonly linesAdded: number; readonly linesRemoved: number } | null;
  } | null;
}

export interface FileDiff {
  readonly path: string;
  readonly change: string;
  readonly binary: boolean;
  readonly unifiedDiff: string;
  readonly diffTruncated: boolean;
}

export interface TodoItem {
  readonly content: string;
  readonly status: 'pending' | 'in_progress' | 'completed';
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
