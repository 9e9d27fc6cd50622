import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeTraceExport } from './otlp-protobuf.js';

/** One attribute value as OTLP/JSON encodes it. */
type OtlpAnyValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: OtlpAnyValue[] };
};

/** A span decoded from an OTLP/JSON export: ids in hex, attributes as plain values. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
  readonly kind: number;
  /** 0 unset, 1 ok, 2 error. */
  readonly statusCode: number;
  readonly statusMessage: string;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly resource: Readonly<Record<string, unknown>>;
  readonly scope: string;
}

/** A metric decoded from an OTLP/JSON export: its name and its data points' attributes and values. */
export interface ReceivedMetric {
  readonly name: string;
  readonly unit: string;
  readonly points: readonly { attributes: Record<string, unknown>; value: number; count?: number }[];
}

/**
 * An OTLP/HTTP receiver on 127.0.0.1 that keeps every request and decodes its payloads: traces in
 * OTLP/JSON or protobuf, metrics in OTLP/JSON.
 */
export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`, for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  readonly endpoint: string;
  /** Every request body as received, with its path and content type. */
  readonly requests: readonly { path: string; contentType: string; body: Buffer }[];
  spans(): ReceivedSpan[];
  metrics(): ReceivedMetric[];
  /** Every body received, as text (for "does this string appear anywhere" assertions). */
  payloadText(): string;
  close(): Promise<void>;
}

function plain(value: OtlpAnyValue | undefined): unknown {
  if (!value) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(plain);
  return undefined;
}

function attributeMap(list: { key: string; value: OtlpAnyValue }[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((entry) => [entry.key, plain(entry.value)]));
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** Starts a receiver on 127.0.0.1 (a free port); it answers every export with an empty success. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requests: { path: string; contentType: string; body: Buffer }[] = [];
  const server = createServer((request, response) => {
    readBody(request).then(
      (body) => {
        requests.push({ path: request.url ?? '', contentType: request.headers['content-type'] ?? '', body });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      },
      () => response.writeHead(400).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const json = (path: string) =>
    requests
      .filter((request) => request.path === path && request.contentType.includes('json'))
      .map((request) => JSON.parse(request.body.toString('utf8')));
  // Trace exports in either encoding, each decoded into the OTLP/JSON shape.
  const traceExports = () =>
    requests
      .filter((request) => request.path === '/v1/traces')
      .map((request) =>
        request.contentType.includes('protobuf')
          ? decodeTraceExport(request.body)
          : JSON.parse(request.body.toString('utf8')),
      );
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    spans() {
      const spans: ReceivedSpan[] = [];
      for (const payload of traceExports())
        for (const resourceSpans of payload.resourceSpans ?? []) {
          const resource = attributeMap(resourceSpans.resource?.attributes);
          for (const scopeSpans of resourceSpans.scopeSpans ?? [])
            for (const span of scopeSpans.spans ?? [])
              spans.push({
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId ?? '',
                name: span.name,
                kind: span.kind,
                statusCode: span.status?.code ?? 0,
                statusMessage: span.status?.message ?? '',
                attributes: attributeMap(span.attributes),
                resource,
                scope: scopeSpans.scope?.name ?? '',
              });
        }
      return spans;
    },
    metrics() {
      const metrics: ReceivedMetric[] = [];
      for (const payload of json('/v1/metrics'))
        for (const resourceMetrics of payload.resourceMetrics ?? [])
          for (const scopeMetrics of resourceMetrics.scopeMetrics ?? [])
            for (const metric of scopeMetrics.metrics ?? []) {
              const data = metric.histogram ?? metric.sum ?? metric.gauge ?? {};
              metrics.push({
                name: metric.name,
                unit: metric.unit ?? '',
                points: (data.dataPoints ?? []).map(
                  (point: {
                    attributes?: { key: string; value: OtlpAnyValue }[];
                    asInt?: string | number;
                    asDouble?: number;
                    sum?: number;
                    count?: string | number;
                  }) => ({
                    attributes: attributeMap(point.attributes),
                    value: Number(point.asInt ?? point.asDouble ?? point.sum ?? 0),
                    ...(point.count !== undefined ? { count: Number(point.count) } : {}),
                  }),
                ),
              });
            }
      return metrics;
    },
    payloadText() {
      return requests.map((request) => request.body.toString('utf8')).join('\n');
    },
    close() {
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
