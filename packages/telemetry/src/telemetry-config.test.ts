import { describe, expect, it } from 'vitest';
import { readExportConfig } from './telemetry-config.js';

describe('readExportConfig', () => {
  it('is off without an endpoint, and with OTEL_SDK_DISABLED', () => {
    expect(readExportConfig({}).export).toBeUndefined();
    expect(
      readExportConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' }).export,
    ).toBeUndefined();
  });

  it('derives the signal URLs from the base endpoint, or takes a signal of its own', () => {
    expect(readExportConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/' }).export).toMatchObject({
      protocol: 'http/protobuf',
      tracesUrl: 'http://127.0.0.1:4318/v1/traces',
      metricsUrl: 'http://127.0.0.1:4318/v1/metrics',
    });
    const tracesOnly = readExportConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:9/t' }).export;
    expect(tracesOnly?.tracesUrl).toBe('http://127.0.0.1:9/t');
    expect(tracesOnly?.metricsUrl).toBeUndefined();
    const noMetrics = readExportConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_METRICS_EXPORTER: 'none',
    }).export;
    expect(noMetrics?.metricsUrl).toBeUndefined();
  });

  it('reads the service name, resource attributes and headers (percent-decoded, malformed members skipped)', () => {
    const config = readExportConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attributes,team=a%20b,broken,=x',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=abc%3D',
    });
    expect(config.resource).toEqual({ 'service.name': 'from-attributes', team: 'a b' });
    expect(config.export?.headers).toEqual({ 'x-api-key': 'abc=' });
    expect(readExportConfig({ OTEL_SERVICE_NAME: 'named' }).resource['service.name']).toBe('named');
    expect(readExportConfig({}).resource['service.name']).toBe('clawsmith');
  });

  it('refuses an endpoint that is not an http(s) URL', () => {
    expect(() => readExportConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4317' })).toThrow(
      /must be an http\(s\) URL such as http:\/\/127\.0\.0\.1:4318/,
    );
  });

  it('turns content capture on from either variable, unless the option says otherwise', () => {
    expect(readExportConfig({}).captureContent).toBe(false);
    expect(readExportConfig({ CLAWSMITH_OTEL_CAPTURE_CONTENT: 'true' }).captureContent).toBe(true);
    expect(readExportConfig({ OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'TRUE' }).captureContent).toBe(true);
    expect(readExportConfig({ CLAWSMITH_OTEL_CAPTURE_CONTENT: 'true' }, false).captureContent).toBe(false);
  });
});
