/**
 * The `kind` of the value a framework adapter's tool hands its framework when the host asks (a
 * LangGraph interrupt, a Mastra tool suspension), so a program can tell it from its own pauses.
 */
export const FRAMEWORK_APPROVAL_KIND = 'clawsmith_approval';

/** What an adapter's tool hands its framework when the host asks: the call a person must approve. */
export interface FrameworkApprovalRequest {
  readonly kind: typeof FRAMEWORK_APPROVAL_KIND;
  /** The tool call this request belongs to; the answer must name it. */
  readonly toolCallId: string;
  /** The tool the call runs. */
  readonly toolName: string;
  /** The arguments the model sent. */
  readonly input: unknown;
  /** Why the host asks (the mode, the rule or the hook that said `ask`). */
  readonly reason: string;
}

/** The answer an adapter's tool accepts when the framework resumes it: the person's answer for one named call. */
export interface FrameworkApprovalAnswer {
  /** The call answered. */
  readonly toolCallId: string;
  /** Whether the person approved it. */
  readonly approved: boolean;
}

/** Whether a framework's pause value is a clawsmith approval request. */
export function isFrameworkApprovalRequest(value: unknown): value is FrameworkApprovalRequest {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === FRAMEWORK_APPROVAL_KIND &&
    typeof (value as { toolCallId?: unknown }).toolCallId === 'string'
  );
}

/**
 * Whether a resume value approves the call `toolCallId`. Anything but an answer naming this very
 * call with `approved: true` is a no: an answer meant for another call never approves this one.
 */
export function approvesCall(answer: unknown, toolCallId: string): boolean {
  if (typeof answer !== 'object' || answer === null) return false;
  const { toolCallId: named, approved } = answer as Partial<FrameworkApprovalAnswer>;
  return named === toolCallId && approved === true;
}
