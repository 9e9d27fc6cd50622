/** The `kind` of the value a clawsmith tool passes to LangGraph's `interrupt()` when the host asks. */
export const APPROVAL_KIND = 'clawsmith_approval';

/** What a clawsmith tool puts in a LangGraph interrupt: the call the host wants a person to approve. */
export interface ApprovalRequest {
  readonly kind: typeof APPROVAL_KIND;
  /** The tool call this interrupt belongs to; the answer must name it. */
  readonly toolCallId: string;
  readonly toolName: string;
  /** The arguments the model sent. */
  readonly input: unknown;
  /** Why the host asks (the mode, the rule or the hook that said `ask`). */
  readonly reason: string;
}

/** The resume value a clawsmith tool accepts: the person's answer for one named call. */
export interface ApprovalAnswer {
  readonly toolCallId: string;
  readonly approved: boolean;
}

/** Whether an interrupt's value is a clawsmith approval request. */
export function isApprovalRequest(value: unknown): value is ApprovalRequest {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === APPROVAL_KIND &&
    typeof (value as { toolCallId?: unknown }).toolCallId === 'string'
  );
}

/**
 * Whether a resume value approves the call `toolCallId`. Anything but an answer naming this very
 * call with `approved: true` is a no: an answer meant for another call never approves this one.
 */
export function approves(answer: unknown, toolCallId: string): boolean {
  if (typeof answer !== 'object' || answer === null) return false;
  const { toolCallId: named, approved } = answer as Partial<ApprovalAnswer>;
  return named === toolCallId && approved === true;
}
