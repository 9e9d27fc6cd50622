// Everything exported here is the public API of @clawsmith/telemetry.

export type { Telemetry, TelemetryOptions } from './create-telemetry.js';
export { createTelemetry } from './create-telemetry.js';
export type { MeterProviderLike, TracerProviderLike } from './otel-runtime.js';
export { INSTRUMENTATION_SCOPE } from './otel-runtime.js';
export type { ModelDescription } from './span-recorder.js';
export type { OtlpProtocol, TelemetryEnvironment } from './telemetry-config.js';
export { TelemetryConfigError } from './telemetry-config.js';
export { CONTENT_ATTRIBUTE_LIMIT } from './content-capture.js';
