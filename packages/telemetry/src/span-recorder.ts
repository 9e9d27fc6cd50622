import type { Attributes, Context, Span } from '@opentelemetry/api';
import type { TraceContext } from '@clawsmith/tool-protocol';
import { capturedMessages, capturedText } from './content-capture.js';
import type { DelegatedBy, TracedEvent } from './event-view.js';
import type { OtelRuntime } from './otel-runtime.js';
import { contextFromTraceparent, traceContextOfSpan } from './w3c-trace-context.js';
import { createInstruments, definedAttributes, type TelemetryInstruments } from './telemetry-metrics.js';

/** Who answers the model requests: the `gen_ai.provider.name` and `gen_ai.request.model` of chat spans. */
export interface ModelDescription {
  /** The adapter name (`openai`, `anthropic`, `scripted`), as `Provider.name` gives it. */
  readonly name: string;
  /** The model asked for, as `Provider.model` gives it. */
  readonly model: string;
}

/** What the recorder needs besides the runtime. */
export interface SpanRecorderOptions {
  readonly agentName: string;
  readonly model?: ModelDescription;
  readonly captureContent: boolean;
  /** The trace a top-level turn continues when none was given for its session. */
  readonly parent?: TraceContext;
}

interface OpenRequest {
  readonly span: Span;
  readonly started: number;
  readonly turnKey: string;
  readonly attributes: Attributes;
}

interface OpenCall {
  readonly span: Span;
  readonly started: number;
  readonly turnKey: string;
  readonly toolName: string;
  stage?: string;
  decision?: string;
}

// Statuses after which a call or a turn did not do what was asked.
const FAILED_CALL = new Set(['error', 'denied', 'cancelled', 'unknown']);
const FAILED_TURN = new Set(['failed', 'cancelled', 'incomplete', 'step_limit', 'interrupted']);
const FINISH_REASONS: Record<string, string> = { 'tool-calls': 'tool_calls', error: 'content_filter' };

function turnKey(sessionId: string, turnId: string): string {
  return `${sessionId}\u0000${turnId}`;
}

function callKey(sessionId: string, turnId: string, toolCallId: string): string {
  return `${sessionId}\u0000${turnId}\u0000${toolCallId}`;
}

/**
 * Turns the traced events of the log into spans and measurements as they are appended: one
 * `invoke_agent` span per turn (a subagent's turn under the call that delegated it), `chat` per
 * model request, `execute_tool` per call (from its first decision to its result), `compact` per
 * compaction of the model's view, `restore` per session restore. Spans still open when their turn completes are ended with it.
 */
export class SpanRecorder {
  readonly #runtime: OtelRuntime;
  readonly #options: SpanRecorderOptions;
  readonly #instruments: TelemetryInstruments;
  readonly #turns = new Map<string, Span>();
  readonly #requests = new Map<string, OpenRequest>();
  readonly #calls = new Map<string, OpenCall>();
  readonly #delegations = new Map<string, DelegatedBy>();
  readonly #parents = new Map<string, TraceContext>();
  readonly #defaultParent: Context;

  constructor(runtime: OtelRuntime, options: SpanRecorderOptions) {
    this.#runtime = runtime;
    this.#options = options;
    this.#instruments = createInstruments(runtime.meter);
    this.#defaultParent = contextFromTraceparent(runtime.api, options.parent);
  }

  /** The next top-level turn of `sessionId` continues `parent` (a web request's `traceparent`, say). */
  continueTrace(sessionId: string, parent: TraceContext): void {
    this.#parents.set(sessionId, parent);
  }

  /** The trace context of a call's `execute_tool` span, while the call runs. */
  traceContextOf(sessionId: string, turnId: string, toolCallId: string): TraceContext | undefined {
    const call = this.#calls.get(callKey(sessionId, turnId, toolCallId));
    return call ? traceContextOfSpan(call.span) : undefined;
  }

  /**
   * Ends every span still open (the process is ending with turns or calls unfinished), marked
   * `clawsmith.unfinished`, so that what they covered is exported rather than lost.
   */
  endOpenSpans(): void {
    const open = [
      ...[...this.#calls.values()].map((call) => call.span),
      ...[...this.#requests.values()].map((request) => request.span),
      ...this.#turns.values(),
    ];
    this.#calls.clear();
    this.#requests.clear();
    this.#turns.clear();
    for (const span of open) {
      span.setAttribute('clawsmith.unfinished', true);
      span.end();
    }
  }

  record(event: TracedEvent): void {
    switch (event.kind) {
      case 'session-created':
        if (event.delegatedBy) this.#delegations.set(event.sessionId, event.delegatedBy);
        return;
      case 'turn-started':
        return this.#startTurn(event);
      case 'turn-completed':
        return this.#completeTurn(event);
      case 'request-started':
        return this.#startRequest(event);
      case 'request-completed':
        return this.#completeRequest(event);
      case 'request-failed':
        return this.#failRequest(event);
      case 'assistant-message':
        return this.#answer(event);
      case 'tool-decision':
        return this.#decide(event);
      case 'tool-started':
        return this.#startCall(event);
      case 'tool-completed':
        return this.#completeCall(event);
      case 'context-compacted':
        return this.#compact(event);
      case 'session-restored':
        return this.#restore(event);
    }
  }

  #parentOfTurn(sessionId: string): { context: Context; delegatedBy?: DelegatedBy } {
    const { api } = this.#runtime;
    const delegatedBy = this.#delegations.get(sessionId);
    if (delegatedBy) {
      this.#delegations.delete(sessionId);
      const call = this.#calls.get(callKey(delegatedBy.sessionId, delegatedBy.turnId, delegatedBy.toolCallId));
      const parentTurn = this.#turns.get(turnKey(delegatedBy.sessionId, delegatedBy.turnId));
      const parent = call?.span ?? parentTurn;
      if (parent) return { context: api.trace.setSpan(api.ROOT_CONTEXT, parent), delegatedBy };
    }
    const incoming = this.#parents.get(sessionId);
    if (incoming) {
      this.#parents.delete(sessionId);
      return { context: contextFromTraceparent(api, incoming) };
    }
    return { context: this.#defaultParent };
  }

  #startTurn(event: Extract<TracedEvent, { kind: 'turn-started' }>): void {
    const { api, tracer } = this.#runtime;
    const { context, delegatedBy } = this.#parentOfTurn(event.sessionId);
    const model = this.#options.model;
    const span = tracer.startSpan(
      `invoke_agent ${this.#options.agentName}`,
      {
        kind: api.SpanKind.INTERNAL,
        attributes: definedAttributes({
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.agent.name': this.#options.agentName,
          'gen_ai.conversation.id': event.sessionId,
          'gen_ai.provider.name': model?.name,
          'gen_ai.request.model': model?.model,
          'clawsmith.turn.id': event.turnId,
          'clawsmith.delegation.kind': delegatedBy?.kind,
          'clawsmith.delegation.parent_session_id': delegatedBy?.sessionId,
          'gen_ai.input.messages': this.#options.captureContent ? capturedMessages('user', event.prompt) : undefined,
        }),
      },
      context,
    );
    this.#turns.set(turnKey(event.sessionId, event.turnId), span);
  }

  #completeTurn(event: Extract<TracedEvent, { kind: 'turn-completed' }>): void {
    const key = turnKey(event.sessionId, event.turnId);
    // Whatever of the turn is still open (a crash's recovery closes calls it never saw end) ends now.
    for (const [callId, call] of this.#calls)
      if (call.turnKey === key) {
        call.span.end();
        this.#calls.delete(callId);
      }
    for (const [requestId, request] of this.#requests)
      if (request.turnKey === key) {
        request.span.end();
        this.#requests.delete(requestId);
      }
    const span = this.#turns.get(key);
    if (!span) return;
    this.#turns.delete(key);
    span.setAttributes(
      definedAttributes({ 'clawsmith.turn.status': event.status, 'clawsmith.turn.steps': event.steps }),
    );
    if (FAILED_TURN.has(event.status)) {
      const errorType = event.errorCode ?? event.status;
      span.setAttribute('error.type', errorType);
      span.setStatus({ code: this.#runtime.api.SpanStatusCode.ERROR, message: errorType });
    }
    span.end();
  }

  #startRequest(event: Extract<TracedEvent, { kind: 'request-started' }>): void {
    const { api, tracer } = this.#runtime;
    const key = turnKey(event.sessionId, event.turnId);
    const turn = this.#turns.get(key);
    const model = this.#options.model;
    const attributes = definedAttributes({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': model?.name,
      'gen_ai.request.model': model?.model,
    });
    const span = tracer.startSpan(
      model ? `chat ${model.model}` : 'chat',
      {
        kind: api.SpanKind.CLIENT,
        attributes: { ...attributes, 'gen_ai.conversation.id': event.sessionId },
      },
      turn ? api.trace.setSpan(api.ROOT_CONTEXT, turn) : this.#defaultParent,
    );
    this.#requests.set(event.requestId, { span, started: performance.now(), turnKey: key, attributes });
  }

  #completeRequest(event: Extract<TracedEvent, { kind: 'request-completed' }>): void {
    const request = this.#requests.get(event.requestId);
    if (!request) return;
    const { span, attributes } = request;
    const finishReason = event.finishReason ? (FINISH_REASONS[event.finishReason] ?? event.finishReason) : undefined;
    if (finishReason) span.setAttribute('gen_ai.response.finish_reasons', [finishReason]);
    if (event.responseModel) span.setAttribute('gen_ai.response.model', event.responseModel);
    const metricAttributes = attributes;
    if (event.usage) {
      span.setAttributes(
        definedAttributes({
          'gen_ai.usage.input_tokens': event.usage.inputTokens,
          'gen_ai.usage.output_tokens': event.usage.outputTokens,
          'gen_ai.usage.cache_read.input_tokens': event.usage.cachedInputTokens,
        }),
      );
      this.#instruments.tokenUsage.record(event.usage.inputTokens, {
        ...metricAttributes,
        'gen_ai.token.type': 'input',
      });
      this.#instruments.tokenUsage.record(event.usage.outputTokens, {
        ...metricAttributes,
        'gen_ai.token.type': 'output',
      });
    }
    this.#instruments.operationDuration.record((performance.now() - request.started) / 1000, metricAttributes);
    if (event.finishReason === 'error') {
      span.setAttribute('error.type', 'model_response_refused');
      span.setStatus({ code: this.#runtime.api.SpanStatusCode.ERROR, message: 'model_response_refused' });
      this.#instruments.refusals.add(1, { 'clawsmith.refusal.kind': 'model', ...attributes });
    }
    // The span stays open for the answer's text (assistant.message comes next) and ends with it.
  }

  #failRequest(event: Extract<TracedEvent, { kind: 'request-failed' }>): void {
    const request = this.#requests.get(event.requestId);
    if (!request) return;
    this.#requests.delete(event.requestId);
    request.span.setAttribute('error.type', event.code);
    request.span.setStatus({ code: this.#runtime.api.SpanStatusCode.ERROR, message: event.code });
    this.#instruments.operationDuration.record((performance.now() - request.started) / 1000, {
      ...request.attributes,
      'error.type': event.code,
    });
    request.span.end();
  }

  #answer(event: Extract<TracedEvent, { kind: 'assistant-message' }>): void {
    const key = turnKey(event.sessionId, event.turnId);
    for (const [requestId, request] of this.#requests) {
      if (request.turnKey !== key) continue;
      if (this.#options.captureContent)
        request.span.setAttribute('gen_ai.output.messages', capturedMessages('assistant', event.text));
      request.span.end();
      this.#requests.delete(requestId);
    }
  }

  #openCall(
    event: { sessionId: string; turnId: string; toolCallId: string; toolName: string },
    attributes?: Attributes,
  ): OpenCall {
    const key = callKey(event.sessionId, event.turnId, event.toolCallId);
    const open = this.#calls.get(key);
    if (open) {
      if (attributes) open.span.setAttributes(attributes);
      return open;
    }
    const { api, tracer } = this.#runtime;
    const owner = turnKey(event.sessionId, event.turnId);
    const turn = this.#turns.get(owner);
    // The span's attributes are given at its start where possible: each later write is checked again.
    const span = tracer.startSpan(
      `execute_tool ${event.toolName}`,
      {
        kind: api.SpanKind.INTERNAL,
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': event.toolName,
          'gen_ai.tool.call.id': event.toolCallId,
          'gen_ai.tool.type': 'function',
          'gen_ai.conversation.id': event.sessionId,
          ...attributes,
        },
      },
      turn ? api.trace.setSpan(api.ROOT_CONTEXT, turn) : this.#defaultParent,
    );
    const call: OpenCall = { span, started: performance.now(), turnKey: owner, toolName: event.toolName };
    this.#calls.set(key, call);
    return call;
  }

  #decide(event: Extract<TracedEvent, { kind: 'tool-decision' }>): void {
    const call = this.#openCall(event, { 'clawsmith.decision': event.action, 'clawsmith.decision.stage': event.stage });
    call.stage = event.stage;
    call.decision = event.action;
  }

  #startCall(event: Extract<TracedEvent, { kind: 'tool-started' }>): void {
    const open = this.#calls.get(callKey(event.sessionId, event.turnId, event.toolCallId));
    const attributes: Attributes = {};
    if (!open?.decision) attributes['clawsmith.decision'] = 'allow';
    if (event.risk !== undefined) attributes['clawsmith.tool.risk'] = event.risk;
    if (event.sideEffect !== undefined) attributes['clawsmith.tool.side_effect'] = event.sideEffect;
    if (this.#options.captureContent) attributes['clawsmith.tool.summary'] = capturedText(event.summary);
    this.#openCall(event, attributes);
  }

  #completeCall(event: Extract<TracedEvent, { kind: 'tool-completed' }>): void {
    const call = this.#openCall(event);
    this.#calls.delete(callKey(event.sessionId, event.turnId, event.toolCallId));
    const { span } = call;
    const failed = FAILED_CALL.has(event.status);
    const errorType = failed ? (event.code ?? event.status) : undefined;
    span.setAttributes(
      definedAttributes({
        'clawsmith.tool.status': event.status,
        'clawsmith.tool.code': event.code,
        'error.type': errorType,
        'gen_ai.tool.call.result': this.#options.captureContent ? capturedText(event.output) : undefined,
      }),
    );
    if (errorType) span.setStatus({ code: this.#runtime.api.SpanStatusCode.ERROR, message: errorType });
    this.#instruments.toolDuration.record(
      (performance.now() - call.started) / 1000,
      this.#toolMetricAttributes(call.toolName, event.status, errorType),
    );
    if (event.status === 'denied')
      this.#instruments.denials.add(1, {
        'gen_ai.tool.name': call.toolName,
        'clawsmith.decision.stage': call.stage ?? 'unknown',
      });
    if (event.code === 'command_refused')
      this.#instruments.refusals.add(1, { 'clawsmith.refusal.kind': 'command', 'gen_ai.tool.name': call.toolName });
    span.end();
  }

  // Measurements of calls share a few attribute sets: built once each, not per call.
  readonly #toolAttributeSets = new Map<string, Attributes>();

  #toolMetricAttributes(toolName: string, status: string, errorType: string | undefined): Attributes {
    const key = `${toolName}\u0000${status}\u0000${errorType ?? ''}`;
    let attributes = this.#toolAttributeSets.get(key);
    if (!attributes) {
      attributes = definedAttributes({
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': toolName,
        'clawsmith.tool.status': status,
        'error.type': errorType,
      });
      if (this.#toolAttributeSets.size < 10_000) this.#toolAttributeSets.set(key, attributes);
    }
    return attributes;
  }

  #compact(event: Extract<TracedEvent, { kind: 'context-compacted' }>): void {
    const { api, tracer } = this.#runtime;
    const turn = event.turnId ? this.#turns.get(turnKey(event.sessionId, event.turnId)) : undefined;
    const attributes = definedAttributes({
      'gen_ai.conversation.id': event.sessionId,
      'clawsmith.turn.id': event.turnId,
      'clawsmith.compaction.reason': event.reason,
      'clawsmith.compaction.pruned_tool_results': event.prunedToolResults,
      'clawsmith.compaction.summarized': event.summarized,
      'clawsmith.compaction.context_window': event.contextWindow,
      'clawsmith.compaction.tokens_before': event.tokensBefore,
      'clawsmith.compaction.tokens_after': event.tokensAfter,
    });
    // The event is written once the compaction is done (its summary request writes no events of
    // its own): the span marks that moment, inside the turn it happened in.
    tracer
      .startSpan(
        'compact',
        { kind: api.SpanKind.INTERNAL, attributes },
        turn ? api.trace.setSpan(api.ROOT_CONTEXT, turn) : this.#defaultParent,
      )
      .end();
  }

  #restore(event: Extract<TracedEvent, { kind: 'session-restored' }>): void {
    const { api, tracer } = this.#runtime;
    const attributes = definedAttributes({
      'gen_ai.conversation.id': event.sessionId,
      'clawsmith.restore.scope': event.scope,
      'clawsmith.restore.turn_id': event.turnId,
      'clawsmith.restore.paths': event.restoredPaths,
    });
    // The event is written when the restore is done: the span marks that moment.
    tracer.startSpan('restore', { kind: api.SpanKind.INTERNAL, attributes }, this.#defaultParent).end();
    this.#instruments.undos.add(1, definedAttributes({ 'clawsmith.restore.scope': event.scope }));
  }
}
