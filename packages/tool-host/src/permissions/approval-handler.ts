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
