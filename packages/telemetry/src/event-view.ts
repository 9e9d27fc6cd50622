/**
 * The one place that reads session events: it maps the fields telemetry uses out of core's event
 * log (`SessionEvent`, structurally, so this package never imports core) into {@link TracedEvent}.
 * Anything else is ignored; a field of the wrong type reads as absent.
 */

/** A session event as the log hands it to listeners: the envelope and the event's own fields. */
export interface SessionEventLike {
  readonly type: string;
  readonly sessionId: string;
  readonly turnId: string | null;
  readonly [field: string]: unknown;
}

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
      readonly model?: string;
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
      readonly kind: 'session-restored';
      readonly sessionId: string;
      readonly scope?: string;
      readonly turnId?: string;
      readonly restoredPaths?: number;
    };

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function usageOf(value: unknown): RequestUsage | undefined {
  const usage = record(value);
  const inputTokens = count(usage?.inputTokens);
  const outputTokens = count(usage?.outputTokens);
  if (inputTokens === undefined || outputTokens === undefined) return undefined;
  const cachedInputTokens = count(usage?.cachedInputTokens);
  return { inputTokens, outputTokens, ...(cachedInputTokens !== undefined ? { cachedInputTokens } : {}) };
}

function delegatedByOf(value: unknown): DelegatedBy | undefined {
  const by = record(value);
  const sessionId = text(by?.sessionId);
  const turnId = text(by?.turnId);
  const toolCallId = text(by?.toolCallId);
  if (!sessionId || !turnId || !toolCallId) return undefined;
  const kind = text(by?.kind);
  return { sessionId, turnId, toolCallId, ...(kind ? { kind } : {}) };
}

/** What telemetry traces of `event`, or `undefined` for an event it does not trace. */
export function readEvent(event: SessionEventLike): TracedEvent | undefined {
  const { sessionId } = event;
  const turnId = event.turnId ?? '';
  switch (event.type) {
    case 'session.created': {
      const delegatedBy = delegatedByOf(event.delegatedBy);
      return { kind: 'session-created', sessionId, ...(delegatedBy ? { delegatedBy } : {}) };
    }
    case 'turn.started':
      return { kind: 'turn-started', sessionId, turnId, prompt: text(event.prompt) ?? '' };
    case 'turn.completed': {
      const steps = count(event.steps);
      const errorCode = text(record(event.error)?.code);
      return {
        kind: 'turn-completed',
        sessionId,
        turnId,
        status: text(event.status) ?? 'unknown',
        ...(steps !== undefined ? { steps } : {}),
        ...(errorCode ? { errorCode } : {}),
      };
    }
    case 'request.started':
      return { kind: 'request-started', sessionId, turnId, requestId: text(event.requestId) ?? '' };
    case 'request.completed': {
      const finishReason = text(event.finishReason);
      const usage = usageOf(event.usage);
      const model = text(event.model);
      return {
        kind: 'request-completed',
        sessionId,
        turnId,
        requestId: text(event.requestId) ?? '',
        ...(finishReason ? { finishReason } : {}),
        ...(usage ? { usage } : {}),
        ...(model ? { model } : {}),
      };
    }
    case 'request.failed':
      return {
        kind: 'request-failed',
        sessionId,
        turnId,
        requestId: text(event.requestId) ?? '',
        code: text(event.code) ?? 'provider_failed',
      };
    case 'assistant.message':
      return { kind: 'assistant-message', sessionId, turnId, text: text(event.text) ?? '' };
    case 'tool.decision':
      return {
        kind: 'tool-decision',
        sessionId,
        turnId,
        toolCallId: text(event.toolCallId) ?? '',
        toolName: text(event.toolName) ?? '',
        stage: text(event.stage) ?? '',
        action: text(event.action) ?? '',
      };
    case 'tool.started':
      return {
        kind: 'tool-started',
        sessionId,
        turnId,
        toolCallId: text(event.toolCallId) ?? '',
        toolName: text(event.toolName) ?? '',
        summary: text(event.summary) ?? '',
        ...(text(event.risk) ? { risk: text(event.risk) } : {}),
        ...(typeof event.sideEffect === 'boolean' ? { sideEffect: event.sideEffect } : {}),
      };
    case 'tool.completed': {
      const result = record(event.result);
      const code = text(result?.code);
      return {
        kind: 'tool-completed',
        sessionId,
        turnId,
        toolCallId: text(event.toolCallId) ?? '',
        toolName: text(event.toolName) ?? '',
        status: text(result?.status) ?? text(event.status) ?? 'unknown',
        output: text(event.output) ?? '',
        ...(code ? { code } : {}),
      };
    }
    case 'session.restored': {
      const scope = text(event.scope);
      const restoredTurn = text(event.turnId);
      const paths = Array.isArray(event.restoredPaths) ? event.restoredPaths.length : undefined;
      return {
        kind: 'session-restored',
        sessionId,
        ...(scope ? { scope } : {}),
        ...(restoredTurn ? { turnId: restoredTurn } : {}),
        ...(paths !== undefined ? { restoredPaths: paths } : {}),
      };
    }
    default:
      return undefined;
  }
}
