import { ClawsmithError } from '@clawsmith/tool-protocol';

/** The OTLP wire formats this package exports with. */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** Where and how to export, read from the standard `OTEL_*` variables. */
export interface ExportConfig {
  readonly protocol: OtlpProtocol;
  /** Full URL of the traces endpoint (`…/v1/traces`). */
  readonly tracesUrl?: string;
  /** Full URL of the metrics endpoint (`…/v1/metrics`), unless metrics are off. */
  readonly metricsUrl?: string;
  readonly headers: Record<string, string>;
  /** `service.name` and the other resource attributes. */
  readonly resource: Record<string, string>;
  /** Whether prompts, outputs and tool results may be recorded (redacted). */
  readonly captureContent: boolean;
  /** Metric export interval in milliseconds (`OTEL_METRIC_EXPORT_INTERVAL`, default 60,000). */
  readonly metricIntervalMs: number;
}

/** The environment variables this package reads. */
export type TelemetryEnvironment = Readonly<Record<string, string | undefined>>;

/** Thrown for a configuration this package cannot export with (code `telemetry_config_invalid`). */
export class TelemetryConfigError extends ClawsmithError {
  constructor(message: string) {
    super('telemetry_config_invalid', message, { retryable: false });
  }
}

function flag(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
}

// `key=value,key2=value2` with percent-encoded values: the format of OTEL_RESOURCE_ATTRIBUTES and
// OTEL_EXPORTER_OTLP_HEADERS. A malformed member is skipped, as the specification asks.
function keyValueList(value: string | undefined): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const member of (value ?? '').split(',')) {
    const at = member.indexOf('=');
    if (at <= 0) continue;
    const key = member.slice(0, at).trim();
    try {
      entries[key] = decodeURIComponent(member.slice(at + 1).trim());
    } catch {
      // not percent-decodable: skipped
    }
  }
  return entries;
}

function signalUrl(environment: TelemetryEnvironment, signal: 'TRACES' | 'METRICS'): string | undefined {
  const own = environment[`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`]?.trim();
  if (own) return own;
  const base = environment.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!base) return undefined;
  return `${base.replace(/\/+$/, '')}/v1/${signal.toLowerCase()}`;
}

function protocolOf(environment: TelemetryEnvironment): OtlpProtocol {
  const protocol = (
    environment.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ??
    environment.OTEL_EXPORTER_OTLP_PROTOCOL ??
    'http/protobuf'
  ).trim();
  if (protocol === 'http/protobuf' || protocol === 'http/json') return protocol;
  throw new TelemetryConfigError(
    `OTEL_EXPORTER_OTLP_PROTOCOL=${JSON.stringify(protocol)} is not supported; use http/protobuf (the default) or http/json, and point OTEL_EXPORTER_OTLP_ENDPOINT at the collector's OTLP/HTTP port (usually 4318).`,
  );
}

function validUrl(url: string | undefined, name: string): string | undefined {
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return url;
  } catch {
    // reported below
  }
  throw new TelemetryConfigError(
    `${name} must be an http(s) URL such as http://127.0.0.1:4318, not ${JSON.stringify(url)}.`,
  );
}

/**
 * Reads the export configuration from `environment`: nothing is exported unless an OTLP endpoint
 * is set (`OTEL_EXPORTER_OTLP_ENDPOINT` or the per-signal one) and `OTEL_SDK_DISABLED` is not
 * true. `undefined` means tracing stays off. Throws `telemetry_config_invalid` for a protocol or
 * endpoint this package cannot use.
 */
export function readExportConfig(
  environment: TelemetryEnvironment,
  captureContentOption?: boolean,
): { readonly export?: ExportConfig; readonly captureContent: boolean; readonly resource: Record<string, string> } {
  const captureContent =
    captureContentOption ??
    (flag(environment.CLAWSMITH_OTEL_CAPTURE_CONTENT) ||
      flag(environment.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT));
  const resource = { ...keyValueList(environment.OTEL_RESOURCE_ATTRIBUTES) };
  resource['service.name'] = environment.OTEL_SERVICE_NAME?.trim() || resource['service.name'] || 'clawsmith';
  if (flag(environment.OTEL_SDK_DISABLED)) return { captureContent, resource };
  const tracesOff = environment.OTEL_TRACES_EXPORTER?.trim() === 'none';
  const metricsOff = environment.OTEL_METRICS_EXPORTER?.trim() === 'none';
  const tracesUrl = tracesOff ? undefined : validUrl(signalUrl(environment, 'TRACES'), 'The OTLP traces endpoint');
  const metricsUrl = metricsOff ? undefined : validUrl(signalUrl(environment, 'METRICS'), 'The OTLP metrics endpoint');
  if (!tracesUrl && !metricsUrl) return { captureContent, resource };
  const interval = Number(environment.OTEL_METRIC_EXPORT_INTERVAL);
  return {
    captureContent,
    resource,
    export: {
      protocol: protocolOf(environment),
      ...(tracesUrl ? { tracesUrl } : {}),
      ...(metricsUrl ? { metricsUrl } : {}),
      headers: keyValueList(environment.OTEL_EXPORTER_OTLP_HEADERS),
      resource,
      captureContent,
      metricIntervalMs: Number.isFinite(interval) && interval > 0 ? interval : 60_000,
    },
  };
}
