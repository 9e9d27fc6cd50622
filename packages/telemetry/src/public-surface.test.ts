// Pins the public surface as literals. A red pin is a deliberate change that needs a changeset,
// never a loosened test.
import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@clawsmith/telemetry public surface', () => {
  it('exports exactly these runtime values', () => {
    expect(Object.keys(api).sort()).toEqual([
      'CONTENT_ATTRIBUTE_LIMIT',
      'INSTRUMENTATION_SCOPE',
      'TelemetryConfigError',
      'createTelemetry',
    ]);
    expect(api.CONTENT_ATTRIBUTE_LIMIT).toBe(16_384);
    expect(api.INSTRUMENTATION_SCOPE).toBe('@clawsmith/telemetry');
  });

  it('pins the error code', () => {
    expect(new api.TelemetryConfigError('x').code).toBe('telemetry_config_invalid');
  });
});
