/**
 * The W3C trace context of one tool call: the `traceparent` (and `tracestate`) of the span that
 * covers it, so a process the call starts, or a server it calls, continues the same trace.
 */
export interface TraceContext {
  /** `00-<32 hex trace id>-<16 hex span id>-<2 hex flags>` (W3C Trace Context, version 00). */
  readonly traceparent: string;
  /** Vendor entries (`key=value,...`), when the trace carries any. */
  readonly tracestate?: string;
}

/** The call a host asks a {@link TraceContextSource} about. */
export interface TraceContextRequest {
  readonly sessionId: string;
  readonly turnId: string;
  readonly toolCallId: string;
}

/**
 * The port through which a host (core) learns the trace context of a call before the tool runs;
 * `@clawsmith/telemetry` implements it. `undefined` when the call is not traced.
 */
export type TraceContextSource = (call: TraceContextRequest) => TraceContext | undefined;

const TRACEPARENT = /^00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;
// W3C limits tracestate to 32 list members; 512 characters is the size every vendor must keep.
const TRACESTATE = /^[\x20-\x2b\x2d-\x7e]{1,256}(,[\x20-\x2b\x2d-\x7e]{1,256}){0,31}$/;

/** Whether `value` is a valid version-00 `traceparent` (lowercase hex, non-zero ids). */
export function isTraceparent(value: unknown): value is string {
  return typeof value === 'string' && TRACEPARENT.test(value);
}

/** Whether `value` is a `tracestate` a host may pass on: printable, at most 512 characters and 32 members. */
export function isTracestate(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 512 && TRACESTATE.test(value);
}

/**
 * The environment entries that hand a trace context to a child process: `TRACEPARENT` and
 * `TRACESTATE` (the names OpenTelemetry's environment carrier reads). Empty for no context or a
 * malformed one: a context that would not parse never reaches a command.
 */
export function traceContextEnvironment(context: TraceContext | undefined): Record<string, string> {
  if (!context || !isTraceparent(context.traceparent)) return {};
  return {
    TRACEPARENT: context.traceparent,
    ...(isTracestate(context.tracestate) ? { TRACESTATE: context.tracestate } : {}),
  };
}
