import type { Context, Span } from '@opentelemetry/api';
import { isTraceparent, isTracestate, type TraceContext } from '@clawsmith/tool-protocol';
import type { OtelApiModule } from './otel-runtime.js';

/**
 * The context whose remote parent is `parent` (W3C `traceparent`/`tracestate`), or the root
 * context when there is none or it does not parse (a new trace starts rather than a broken one).
 */
export function contextFromTraceparent(api: OtelApiModule, parent: TraceContext | undefined): Context {
  if (!parent || !isTraceparent(parent.traceparent)) return api.ROOT_CONTEXT;
  const [, traceId, spanId, flags] = parent.traceparent.split('-') as [string, string, string, string];
  return api.trace.setSpanContext(api.ROOT_CONTEXT, {
    traceId,
    spanId,
    traceFlags: Number.parseInt(flags, 16) & 0xff,
    isRemote: true,
    ...(isTracestate(parent.tracestate) ? { traceState: api.createTraceState(parent.tracestate) } : {}),
  });
}

/** The W3C trace context that names `span` as the parent. */
export function traceContextOfSpan(span: Span): TraceContext {
  const { traceId, spanId, traceFlags, traceState } = span.spanContext();
  const tracestate = traceState?.serialize();
  return {
    traceparent: `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, '0')}`,
    ...(tracestate ? { tracestate } : {}),
  };
}
