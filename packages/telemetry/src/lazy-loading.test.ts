import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./__fixtures__/loaded-modules.ts', import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** What a fresh Node process loaded after `createTelemetry` with `environment`. */
function loadedWith(environment: Record<string, string>): { enabled: boolean; openTelemetryModules: number } {
  const run = spawnSync(
    process.execPath,
    ['--conditions=@clawsmith/source', '--import', tsx, script, JSON.stringify(environment)],
    { encoding: 'utf8', timeout: 60_000 },
  );
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { enabled: boolean; openTelemetryModules: number };
}

describe('createTelemetry loading', () => {
  it('loads no OpenTelemetry module when nothing is configured, and the SDK once an endpoint is', () => {
    expect(loadedWith({})).toEqual({ enabled: false, openTelemetryModules: 0 });
    const on = loadedWith({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_METRICS_EXPORTER: 'none' });
    expect(on.enabled).toBe(true);
    expect(on.openTelemetryModules).toBeGreaterThan(10);
  });
});
