/** The version this package reports as its instrumentation scope's version. */
export const TELEMETRY_VERSION = '0.1.0';
