import type { Provider } from '@clawsmith/providers';
import type { Telemetry } from '@clawsmith/telemetry';
import { isTraceparent } from '@clawsmith/tool-protocol';
import { CliError } from '../cli-errors.js';
import { EXIT_CODES } from '../exit-codes.js';

/**
 * The process's telemetry: OpenTelemetry export when the standard `OTEL_*` variables configure
 * it, continuing `--traceparent` (or `TRACEPARENT`). A malformed `--traceparent` or OTLP setting is
 * a usage error that says what to write instead.
 */
export async function openTelemetry(options: {
  readonly provider?: Provider;
  readonly traceparent?: string;
}): Promise<Telemetry> {
  const { createTelemetry } = await import('@clawsmith/telemetry');
  if (options.traceparent !== undefined && !isTraceparent(options.traceparent))
    throw new CliError(
      'traceparent_invalid',
      `--traceparent ${JSON.stringify(options.traceparent)} is not a W3C traceparent; write it as 00-<32 hex trace id>-<16 hex span id>-<2 hex flags>, e.g. 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01.`,
      EXIT_CODES.usage,
    );
  try {
    return await createTelemetry({
      ...(options.provider ? { model: options.provider } : {}),
      ...(options.traceparent ? { parent: { traceparent: options.traceparent } } : {}),
    });
  } catch (error) {
    throw new CliError('telemetry_config_invalid', (error as Error).message, EXIT_CODES.usage);
  }
}
