import type { SessionEvent } from '@clawsmith/session-protocol';

/**
 * The one place that reads session events: it maps the fields telemetry uses out of the typed
 * event log (`@clawsmith/session-protocol`) into {@link TracedEvent}. Other events are ignored.
 */

/** Who delegated a child session: the parent session and the tool call that started the child. */
export interface DelegatedBy {
  readonly sessionId: string;
  readonly turnId: string;
  readonly toolCallId: string;
  readonly kind?: string;
}

/** Tokens of one model request. */
export interface RequestUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedInputTokens?: number;
}

/** What telemetry reads from the event log, one variant per event it traces. */
export type TracedEvent =
  | { readonly kind: 'session-created'; readonly sessionId: string; readonly delegatedBy?: DelegatedBy }
  | { readonly kind: 'turn-started'; readonly sessionId: string; readonly turnId: string; readonly prompt: string }
  | {
      readonly kind: 'turn-completed';
      readonly sessionId: string;
      readonly turnId: string;
      readonly status: string;
      readonly steps?: number;
      readonly errorCode?: string;
    }
  | {
      readonly kind: 'request-started';
      readonly sessionId: string;
      readonly turnId: string;
      readonly requestId: string;
    }
  | {
      readonly kind: 'request-completed';
      readonly sessionId: string;
      readonly turnId: string;
      readonly requestId: string;
      readonly finishReason?: string;
      readonly usage?: RequestUsage;
      readonly responseModel?: string;
    }
  | {
      readonly kind: 'request-failed';
      readonly sessionId: string;
      readonly turnId: string;
      readonly requestId: string;
      readonly code: string;
    }
  | { readonly kind: 'assistant-message'; readonly sessionId: string; readonly turnId: string; readonly text: string }
  | {
      readonly kind: 'tool-decision';
      readonly sessionId: string;
      readonly turnId: string;
      readonly toolCallId: string;
      readonly toolName: string;
      readonly stage: string;
      readonly action: string;
    }
  | {
      readonly kind: 'tool-started';
      readonly sessionId: string;
      readonly turnId: string;
      readonly toolCallId: string;
      readonly toolName: string;
      readonly risk?: string;
      readonly sideEffect?: boolean;
      readonly summary: string;
    }
  | {
      readonly kind: 'tool-completed';
      readonly sessionId: string;
      readonly turnId: string;
      readonly toolCallId: string;
      readonly toolName: string;
      readonly status: string;
      readonly code?: string;
      readonly output: string;
    }
  | {
      readonly kind: 'context-compacted';
      readonly sessionId: string;
      /** The turn it happened in; absent for `/compact` between turns. */
      readonly turnId?: string;
      readonly reason: string;
      readonly prunedToolResults: number;
      readonly summarized: boolean;
      readonly contextWindow: number;
      readonly tokensBefore: number;
      readonly tokensAfter: number;
    }
  | {
      readonly kind: 'session-restored';
      readonly sessionId: string;
      readonly scope?: string;
      readonly turnId?: string;
      readonly restoredPaths?: number;
    };

/** What telemetry traces of `event`, or `undefined` for an event it does not trace. */
export function readEvent(event: SessionEvent): TracedEvent | undefined {
  const { sessionId } = event;
  const turnId = event.turnId ?? '';
  switch (event.type) {
    case 'session.created':
      return { kind: 'session-created', sessionId, ...(event.delegatedBy ? { delegatedBy: event.delegatedBy } : {}) };
    case 'turn.started':
      return { kind: 'turn-started', sessionId, turnId, prompt: event.prompt };
    case 'turn.completed':
      return {
        kind: 'turn-completed',
        sessionId,
        turnId,
        status: event.status,
        ...(event.steps !== undefined ? { steps: event.steps } : {}),
        ...(event.error ? { errorCode: event.error.code } : {}),
      };
    case 'request.started':
      return { kind: 'request-started', sessionId, turnId, requestId: event.requestId };
    case 'request.completed': {
      const usage = event.usage;
      return {
        kind: 'request-completed',
        sessionId,
        turnId,
        requestId: event.requestId,
        finishReason: event.finishReason,
        ...(event.responseModel ? { responseModel: event.responseModel } : {}),
        ...(usage
          ? {
              usage: {
                inputTokens: usage.inputTokens,
                outputTokens: usage.outputTokens,
                ...(usage.cacheReadTokens !== undefined ? { cachedInputTokens: usage.cacheReadTokens } : {}),
              },
            }
          : {}),
      };
    }
    case 'request.failed':
      return { kind: 'request-failed', sessionId, turnId, requestId: event.requestId, code: event.code };
    case 'assistant.message':
      return { kind: 'assistant-message', sessionId, turnId, text: event.text };
    case 'tool.decision':
      return {
        kind: 'tool-decision',
        sessionId,
        turnId,
        toolCallId: event.toolCallId,
        toolName: event.toolName,
        stage: event.stage,
        action: event.action,
      };
    case 'tool.started':
      return {
        kind: 'tool-started',
        sessionId,
        turnId,
        toolCallId: event.toolCallId,
        toolName: event.toolName,
        summary: event.summary,
        risk: event.risk,
        sideEffect: event.sideEffect,
      };
    case 'tool.completed':
      return {
        kind: 'tool-completed',
        sessionId,
        turnId,
        toolCallId: event.toolCallId,
        toolName: event.toolName,
        status: event.result.status,
        output: event.output,
        ...(event.result.code ? { code: event.result.code } : {}),
      };
    case 'context.compacted':
      return {
        kind: 'context-compacted',
        sessionId,
        ...(event.turnId ? { turnId: event.turnId } : {}),
        reason: event.reason,
        prunedToolResults: event.prunedToolResults,
        summarized: event.summary !== undefined,
        contextWindow: event.contextWindow,
        tokensBefore: event.tokensBefore,
        tokensAfter: event.tokensAfter,
      };
    case 'session.restored':
      return {
        kind: 'session-restored',
        sessionId,
        scope: event.scope,
        restoredPaths: event.restoredPaths.length,
        ...(event.turnId ? { turnId: event.turnId } : {}),
      };
    default:
      return undefined;
  }
}
