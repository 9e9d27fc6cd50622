import type { ApprovalAnswer, ApprovalHandler, ApprovalRequest } from '@clawsmith/tool-host';

interface Waiting {
  readonly request: ApprovalRequest;
  readonly resolve: (answer: ApprovalAnswer) => void;
}

/**
 * Holds the approvals of a core's turns until whoever serves a person (a web server over HTTP, an
 * editor bridge) answers them. Give it to `createAgentCore` as `approvals`; the core asks through
 * {@link ApprovalBroker.handler} and offers the broker back as `AgentCore.approvals`. A turn waits
 * until the person answers, or until it is cancelled, which denies the call.
 */
export class ApprovalBroker {
  readonly #waiting = new Map<string, Waiting>();

  /** The approval handler the core asks through: each request waits here for its answer. */
  readonly handler: ApprovalHandler = (request, signal) =>
    new Promise<ApprovalAnswer>((resolve, reject) => {
      if (signal.aborted) return reject(new Error('The turn was cancelled before the approval was answered.'));
      const onAbort = () => {
        this.#waiting.delete(request.approvalId);
        reject(new Error('The turn was cancelled before the approval was answered.'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting.set(request.approvalId, {
        request,
        resolve: (answer) => {
          signal.removeEventListener('abort', onAbort);
          this.#waiting.delete(request.approvalId);
          resolve(answer);
        },
      });
    });

  /** The request waiting under `approvalId` in `sessionId`, if a turn of this process waits for it. */
  waiting(sessionId: string, approvalId: string): ApprovalRequest | undefined {
    const waiting = this.#waiting.get(approvalId);
    return waiting && waiting.request.sessionId === sessionId ? waiting.request : undefined;
  }

  /** Answers a waiting approval; false when none waits under that id in that session. */
  answer(sessionId: string, approvalId: string, answer: ApprovalAnswer): boolean {
    const waiting = this.#waiting.get(approvalId);
    if (!waiting || waiting.request.sessionId !== sessionId) return false;
    waiting.resolve(answer);
    return true;
  }
}
