import type { ApprovalAnswer, ApprovalHandler, ApprovalRequest } from '@clawsmith/core';

interface Waiting {
  readonly request: ApprovalRequest;
  readonly resolve: (answer: ApprovalAnswer) => void;
}

/**
 * Hands the approvals of turns this server runs to whoever answers them over HTTP. Give
 * {@link ApprovalBroker.handler} to the core the server runs turns with; the turn waits until
 * the person answers (or the turn is cancelled, which denies).
 */
export class ApprovalBroker {
  readonly #waiting = new Map<string, Waiting>();

  /** The core's approval handler. */
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

  /** The request waiting under `approvalId` in `sessionId`, if this server's turn waits for it. */
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
