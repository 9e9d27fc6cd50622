import type { ModelToolCall } from '@clawsmith/providers';
import type {
  ArtifactReference,
  ArtifactWriter,
  FileChangeRecorder,
  ToolExecutionResult,
} from '@clawsmith/tool-protocol';
import type { ToolHook } from '../permissions/hooks.js';
import type { PermissionMode, PermissionRule } from '../permissions/permission-policy.js';
import type { SessionStore } from '../store/session-store.js';
import type { ToolTable } from './tool-table.js';

/** A person's answer to an approval prompt. `allow-session` allows this tool for the rest of the session. */
export type ApprovalAnswer = 'allow' | 'deny' | 'allow-session';

/** What an approval handler (terminal or web) is asked. */
export interface ApprovalRequest {
  readonly approvalId: string;
  readonly sessionId: string;
  readonly turnId: string;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly summary: string;
  readonly input: unknown;
  readonly risk: string;
  readonly capabilities: readonly string[];
  readonly reason: string;
}

/** Asks a person. A handler that throws denies. */
export type ApprovalHandler = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalAnswer>;

/** Whether a deferred tool may be called now. */
export type ToolGate = (name: string) => 'available' | 'inactive' | 'unknown';

/** Stores large content and returns a preview (the artifacts service, seen from core). */
export interface ContentExternalizer {
  externalize(
    content: string,
    options: { sessionId: string; toolCallId: string; threshold: number },
  ): Promise<{ content: string; artifact?: ArtifactReference }>;
  writerFor(options: { sessionId: string; toolCallId: string }): ArtifactWriter;
}

/** Everything the lifecycle of the calls of one model response needs. */
export interface CallRuntime {
  readonly table: ToolTable;
  readonly gate: ToolGate;
  readonly store: SessionStore;
  readonly sessionId: string;
  readonly turnId: string;
  readonly workspaceRoot: string;
  readonly signal: AbortSignal;
  readonly permissionMode: PermissionMode;
  readonly rules: readonly PermissionRule[];
  readonly hooks: readonly ToolHook[];
  readonly approvalHandler?: ApprovalHandler;
  /** Why an `ask` is denied when there is no approval handler (default: a non-interactive run). */
  readonly unattendedReason?: string;
  /** Tools a person allowed for the rest of this session. */
  readonly sessionAllowances: Set<string>;
  readonly recorder?: FileChangeRecorder;
  readonly artifacts?: ContentExternalizer;
  /** Content above this many bytes goes to an artifact (default 50,000). */
  readonly inlineContentLimit: number;
  /** How long to wait for a tool after cancellation before giving up on it. */
  readonly cancelGraceMs: number;
  /** Tool call ids already used this turn (a reused id is a `duplicate_call`). */
  readonly seenCallIds: Set<string>;
}

/** One call's outcome, in the shape persisted in the message and the event. */
export interface CallOutcome {
  readonly call: ModelToolCall;
  readonly result: ToolExecutionResult;
}
