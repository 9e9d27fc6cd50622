import { isTraceparent, isTracestate, type TraceContext } from '@clawsmith/tool-protocol';

/**
 * The W3C trace context a request carries (`traceparent`, `tracestate` headers), when its
 * `traceparent` is valid; a malformed one is ignored, as W3C Trace Context asks (a new trace starts).
 */
export function traceContextOfRequest(headers: Headers): TraceContext | undefined {
  const traceparent = headers.get('traceparent')?.trim();
  if (!isTraceparent(traceparent)) return undefined;
  const tracestate = headers.get('tracestate')?.trim();
  return { traceparent, ...(isTracestate(tracestate) ? { tracestate } : {}) };
}
