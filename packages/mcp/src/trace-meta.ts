import { isTraceparent, isTracestate, type TraceContext } from '@clawsmith/tool-protocol';

/**
 * The `_meta` entries that carry a call's W3C trace context in an MCP request (`traceparent`,
 * `tracestate`, the names the MCP tracing proposal and OpenTelemetry's MCP conventions use), or
 * none for a call that is not traced.
 */
export function traceMeta(context: TraceContext | undefined): { traceparent?: string; tracestate?: string } {
  if (!context || !isTraceparent(context.traceparent)) return {};
  return {
    traceparent: context.traceparent,
    ...(isTracestate(context.tracestate) ? { tracestate: context.tracestate } : {}),
  };
}

/** The trace context a client sent in a request's `_meta`, when it is a valid one. */
export function traceContextOfMeta(params: { readonly _meta?: unknown }): TraceContext | undefined {
  const meta = params._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const { traceparent, tracestate } = meta as { traceparent?: unknown; tracestate?: unknown };
  if (!isTraceparent(traceparent)) return undefined;
  return { traceparent, ...(isTracestate(tracestate) ? { tracestate } : {}) };
}
