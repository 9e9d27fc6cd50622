import { isTraceparent, type TraceContext, type TraceContextRequest } from '@clawsmith/tool-protocol';
import type { SessionEvent } from '@clawsmith/session-protocol';
import { readEvent } from './event-view.js';
import { startOtelRuntime, type MeterProviderLike, type TracerProviderLike } from './otel-runtime.js';
import { SpanRecorder, type ModelDescription } from './span-recorder.js';
import { readExportConfig, type TelemetryEnvironment } from './telemetry-config.js';
import { TELEMETRY_VERSION } from './telemetry-version.js';

/** Options of {@link createTelemetry}. */
export interface TelemetryOptions {
  /** Where the `OTEL_*` and `TRACEPARENT` variables are read; default `process.env`. */
  readonly environment?: TelemetryEnvironment;
  /** Your own tracer provider: spans go there, and no exporter of ours is created for traces. */
  readonly tracerProvider?: TracerProviderLike;
  /** Your own meter provider: measurements go there, and no exporter of ours is created for metrics. */
  readonly meterProvider?: MeterProviderLike;
  /**
   * Records prompts, answers, call summaries and tool results (secrets redacted) on spans.
   * Default off, or `CLAWSMITH_OTEL_CAPTURE_CONTENT=true` /
   * `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`.
   */
  readonly captureContent?: boolean;
  /** The provider and model of chat spans (pass the `Provider` itself: it has `name` and `model`). */
  readonly model?: ModelDescription;
  /** `gen_ai.agent.name` of `invoke_agent` spans; default `clawsmith`. */
  readonly agentName?: string;
  /**
   * The trace that top-level turns continue (a `--traceparent` flag, say); default the
   * environment's `TRACEPARENT`/`TRACESTATE`, else each turn starts a trace of its own.
   */
  readonly parent?: TraceContext;
}

/** Traces and metrics from the session event log, and the trace context of running calls. */
export interface Telemetry {
  /** Whether anything is recorded: false when no endpoint or provider is configured. */
  readonly enabled: boolean;
  /**
   * Hands one session event over as it is appended (subscribe it: `core.subscribe(telemetry.record)`).
   * Never throws.
   */
  readonly record: (event: SessionEvent) => void;
  /** The trace context of a running call (core's `traceContext` option); `undefined` when off. */
  readonly traceContextOf: (call: TraceContextRequest) => TraceContext | undefined;
  /** The next top-level turn of `sessionId` continues `parent` (an incoming request's `traceparent`). */
  continueTrace(sessionId: string, parent: TraceContext): void;
  /** Exports everything recorded so far. */
  flush(): Promise<void>;
  /**
   * Ends the spans still open (marked `clawsmith.unfinished`), flushes, and stops the exporters
   * this package created (your own providers are flushed, not stopped).
   */
  shutdown(): Promise<void>;
}

const DISABLED: Telemetry = Object.freeze({
  enabled: false,
  record: () => undefined,
  traceContextOf: () => undefined,
  continueTrace: () => undefined,
  flush: async () => undefined,
  shutdown: async () => undefined,
});

function environmentParent(environment: TelemetryEnvironment): TraceContext | undefined {
  const traceparent = environment.TRACEPARENT?.trim();
  if (!isTraceparent(traceparent)) return undefined;
  const tracestate = environment.TRACESTATE?.trim();
  return { traceparent, ...(tracestate ? { tracestate } : {}) };
}

/**
 * Telemetry for one process. Off (and without loading any OpenTelemetry package) unless an OTLP
 * endpoint is configured through the standard `OTEL_*` variables or a provider is passed. Throws
 * `telemetry_config_invalid` for an endpoint or protocol it cannot export to.
 */
export async function createTelemetry(options: TelemetryOptions = {}): Promise<Telemetry> {
  const environment = options.environment ?? process.env;
  const config = readExportConfig(environment, options.captureContent);
  if (!config.export && !options.tracerProvider && !options.meterProvider) return DISABLED;
  const runtime = await startOtelRuntime(config.export, {
    ...(options.tracerProvider ? { tracerProvider: options.tracerProvider } : {}),
    ...(options.meterProvider ? { meterProvider: options.meterProvider } : {}),
    version: TELEMETRY_VERSION,
  });
  const parent = options.parent ?? environmentParent(environment);
  const recorder = new SpanRecorder(runtime, {
    agentName: options.agentName ?? 'clawsmith',
    captureContent: config.captureContent,
    ...(options.model ? { model: { name: options.model.name, model: options.model.model } } : {}),
    ...(parent ? { parent } : {}),
  });
  return {
    enabled: true,
    record: (event) => {
      try {
        const traced = readEvent(event);
        if (traced) recorder.record(traced);
      } catch {
        // Telemetry must never break the turn whose events it reads.
      }
    },
    traceContextOf: (call) => {
      try {
        return recorder.traceContextOf(call.sessionId, call.turnId, call.toolCallId);
      } catch {
        return undefined;
      }
    },
    continueTrace: (sessionId, incoming) => recorder.continueTrace(sessionId, incoming),
    flush: () => runtime.flush(),
    shutdown: async () => {
      recorder.endOpenSpans();
      await runtime.shutdown();
    },
  };
}
