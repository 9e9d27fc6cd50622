import { createRequire } from 'node:module';
import type * as OtelApi from '@opentelemetry/api';
import type * as TraceHttp from '@opentelemetry/exporter-trace-otlp-http';
import type * as TraceProto from '@opentelemetry/exporter-trace-otlp-proto';
import type * as MetricsHttp from '@opentelemetry/exporter-metrics-otlp-http';
import type * as MetricsProto from '@opentelemetry/exporter-metrics-otlp-proto';
import type * as Resources from '@opentelemetry/resources';
import type * as SdkTrace from '@opentelemetry/sdk-trace-base';
import type * as SdkMetrics from '@opentelemetry/sdk-metrics';
import type { ExportConfig } from './telemetry-config.js';

// The OpenTelemetry packages are loaded on demand, through require: Node runs their CommonJS
// builds (their `module` export condition names ES builds with extensionless imports, which only
// bundlers resolve), and nothing of them is loaded while tracing is off. They are resolved from
// this package's own folder (its declared dependencies), also when an application bundled this
// code into files elsewhere (the `clawsmith` executable).
let required: NodeJS.Require | undefined;
function load(name: string): unknown {
  required ??= createRequire(createRequire(import.meta.url).resolve('@clawsmith/telemetry/package.json'));
  return required(name);
}

/** The OpenTelemetry API module, loaded on demand. */
export type OtelApiModule = typeof OtelApi;

/** A tracer provider as OpenTelemetry's API defines it, optionally flushable (the SDK's are). */
export interface TracerProviderLike extends OtelApi.TracerProvider {
  forceFlush?(): Promise<void>;
}

/** A meter provider as OpenTelemetry's API defines it, optionally flushable (the SDK's are). */
export interface MeterProviderLike extends OtelApi.MeterProvider {
  forceFlush?(): Promise<void>;
}

/** What the recorder writes to: the API, a tracer and a meter, and how to flush and stop them. */
export interface OtelRuntime {
  readonly api: OtelApiModule;
  readonly tracer: OtelApi.Tracer;
  readonly meter: OtelApi.Meter;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/** The instrumentation scope every span and instrument of this package carries. */
export const INSTRUMENTATION_SCOPE = '@clawsmith/telemetry';

interface Stoppable {
  forceFlush?(): Promise<void>;
  shutdown?(): Promise<void>;
}

async function traceExporter(config: ExportConfig, url: string) {
  const options = { url, headers: config.headers };
  if (config.protocol === 'http/json') {
    const { OTLPTraceExporter } = load('@opentelemetry/exporter-trace-otlp-http') as typeof TraceHttp;
    return new OTLPTraceExporter(options);
  }
  const { OTLPTraceExporter } = load('@opentelemetry/exporter-trace-otlp-proto') as typeof TraceProto;
  return new OTLPTraceExporter(options);
}

async function metricExporter(config: ExportConfig, url: string) {
  const options = { url, headers: config.headers };
  if (config.protocol === 'http/json') {
    const { OTLPMetricExporter } = load('@opentelemetry/exporter-metrics-otlp-http') as typeof MetricsHttp;
    return new OTLPMetricExporter(options);
  }
  const { OTLPMetricExporter } = load('@opentelemetry/exporter-metrics-otlp-proto') as typeof MetricsProto;
  return new OTLPMetricExporter(options);
}

/**
 * Loads the OpenTelemetry packages (only now: a process without tracing never imports them) and
 * builds the tracer and meter: the caller's providers when given, otherwise SDK providers that
 * export OTLP as `config` says. Nothing is registered globally: a library must not take over the
 * application's global providers.
 */
export async function startOtelRuntime(
  config: ExportConfig | undefined,
  own: { tracerProvider?: TracerProviderLike; meterProvider?: MeterProviderLike; version: string },
): Promise<OtelRuntime> {
  const api = load('@opentelemetry/api') as OtelApiModule;
  const stoppable: Stoppable[] = [];
  let tracerProvider: OtelApi.TracerProvider | undefined = own.tracerProvider;
  let meterProvider: OtelApi.MeterProvider | undefined = own.meterProvider;
  if (own.tracerProvider) stoppable.push({ forceFlush: () => own.tracerProvider?.forceFlush?.() ?? Promise.resolve() });
  if (own.meterProvider) stoppable.push({ forceFlush: () => own.meterProvider?.forceFlush?.() ?? Promise.resolve() });
  if (config && (!tracerProvider || !meterProvider)) {
    const { resourceFromAttributes } = load('@opentelemetry/resources') as typeof Resources;
    const resource = resourceFromAttributes(config.resource);
    if (!tracerProvider && config.tracesUrl) {
      const { BasicTracerProvider, BatchSpanProcessor } = load('@opentelemetry/sdk-trace-base') as typeof SdkTrace;
      const provider = new BasicTracerProvider({
        resource,
        spanProcessors: [new BatchSpanProcessor(await traceExporter(config, config.tracesUrl))],
      });
      stoppable.push(provider);
      tracerProvider = provider;
    }
    if (!meterProvider && config.metricsUrl) {
      const { MeterProvider, PeriodicExportingMetricReader } = load('@opentelemetry/sdk-metrics') as typeof SdkMetrics;
      const provider = new MeterProvider({
        resource,
        readers: [
          new PeriodicExportingMetricReader({
            exporter: await metricExporter(config, config.metricsUrl),
            exportIntervalMillis: config.metricIntervalMs,
          }),
        ],
      });
      stoppable.push(provider);
      meterProvider = provider;
    }
  }
  const tracer = (tracerProvider ?? new api.ProxyTracerProvider()).getTracer(INSTRUMENTATION_SCOPE, own.version);
  const meter = meterProvider ? meterProvider.getMeter(INSTRUMENTATION_SCOPE, own.version) : api.createNoopMeter();
  return {
    api,
    tracer,
    meter,
    async flush() {
      await Promise.all(stoppable.map((item) => item.forceFlush?.()));
    },
    async shutdown() {
      await Promise.all(stoppable.map((item) => (item.shutdown ? item.shutdown() : item.forceFlush?.())));
    },
  };
}
