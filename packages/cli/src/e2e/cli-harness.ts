// Test harness: runs the BUILT `clawsmith` binary (dist/bin.js) as a real child process with a
// temporary home, and writes scripts of model responses. Not part of the build.
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built binary the tests run. */
export const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

/** What a finished run printed and how it exited. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of {@link runCli}. */
export interface RunCliOptions {
  readonly home: string;
  readonly cwd?: string;
  readonly input?: string;
  readonly env?: Record<string, string | undefined>;
}

/** Environment variables a developer's shell may hold that would change what the command does. */
const SCRUBBED = [
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_BASE_URL',
  'CLAWSMITH_PROVIDER',
  'CLAWSMITH_MODEL',
  'CLAWSMITH_DATABASE_URL',
  'FORCE_COLOR',
  'NODE_OPTIONS',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_SERVICE_NAME',
  'OTEL_RESOURCE_ATTRIBUTES',
  'TRACEPARENT',
  'TRACESTATE',
];

/** The environment a test's child gets: the parent's without keys and color overrides, plus `home`. */
export function childEnvironment(home: string, extra: Record<string, string | undefined> = {}): Record<string, string> {
  const environment: Record<string, string | undefined> = { ...process.env, CLAWSMITH_HOME: home, NO_COLOR: '1' };
  for (const name of SCRUBBED) delete environment[name];
  Object.assign(environment, extra);
  return Object.fromEntries(
    Object.entries(environment).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/** Runs `clawsmith ...args` to completion. */
export function runCli(args: readonly string[], options: RunCliOptions): Promise<CliRun> {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing; build the package first (nx run @clawsmith/cli:build).`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? options.home,
      env: childEnvironment(options.home, options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** Writes a model script (`{ responses }`) into `folder` and returns its path. */
export function writeScript(folder: string, responses: readonly unknown[], name = 'script.json'): string {
  const path = join(folder, name);
  writeFileSync(path, JSON.stringify({ responses }, null, 2));
  return path;
}

/** Parses `--json` output: every line must be one JSON object (throws naming the first that is not). */
export function parseJsonLines(stdout: string): Record<string, unknown>[] {
  const lines = stdout.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line, index) => {
    try {
      const value = JSON.parse(line) as unknown;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
      return value as Record<string, unknown>;
    } catch (error) {
      throw new Error(
        `stdout line ${index + 1} is not a JSON object (${(error as Error).message}): ${JSON.stringify(line.slice(0, 200))}`,
      );
    }
  });
}
