import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { bundledFixture } from './bundled-fixture.js';
import { startStreamingModelServer, type ModelStep } from './model-servers/streaming-model-server.js';

/** The marker line a README puts right before the code block that shows an example file. */
export function exampleMarker(examplePath: string): string {
  return `<!-- example: ${examplePath} (run by the tests; edit the file, then copy it here) -->`;
}

/**
 * The code block that follows `exampleMarker(examplePath)` in `packageRoot`'s README, and the
 * example file itself, so a test can require them to be equal. Throws when the marker or its
 * code block is missing.
 */
export function readmeExample(packageRoot: string, examplePath: string): { readme: string; file: string } {
  const readme = readFileSync(join(packageRoot, 'README.md'), 'utf8');
  const marker = exampleMarker(examplePath);
  const at = readme.indexOf(marker);
  if (at === -1) throw new Error(`README.md has no line ${marker}`);
  const block = /^```ts\n([\s\S]*?)^```$/m.exec(readme.slice(at + marker.length));
  if (!block?.[1]) throw new Error(`README.md has no \`\`\`ts block after ${marker}`);
  return { readme: block[1], file: readFileSync(join(packageRoot, examplePath), 'utf8') };
}

/** How an example program starts: bundled (the default) or compiled module by module through tsx. */
export type ExampleStart = 'bundled' | 'tsx';

/**
 * Runs an example file as its own Node process and returns what it printed; throws with its
 * output when it exits non-zero. By default the example runs bundled with the sibling packages'
 * sources it imports ({@link bundledFixture}): the same program as under tsx, started without
 * compiling every module again on each run. `tsx` is for an example whose packages start worker
 * threads from module files beside their own, which a bundle would leave behind.
 */
export async function runExample(
  packageRoot: string,
  examplePath: string,
  timeoutMs = 120_000,
  start: ExampleStart = 'bundled',
): Promise<string> {
  // Plain text whatever the runner's terminal: CI and vitest set FORCE_COLOR, which colours console.log.
  const { FORCE_COLOR: _forced, ...environment } = process.env;
  const child = spawn(process.execPath, await exampleArguments(packageRoot, examplePath, start), {
    cwd: packageRoot,
    env: { ...environment, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: timeoutMs,
  });
  const { status, stdout, stderr } = await outputOf(child);
  if (status !== 0) throw new Error(`${examplePath} exited ${status}:\n${stdout}\n${stderr}`);
  return stdout;
}

/** Node's arguments that start the example as `start` says. */
async function exampleArguments(packageRoot: string, examplePath: string, start: ExampleStart): Promise<string[]> {
  if (start === 'bundled') return [await bundledFixture(resolve(packageRoot, examplePath))];
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return ['--conditions=@clawsmith/source', '--import', tsx, examplePath];
}

/** What a child printed, once it has ended, and how it ended. */
async function outputOf(child: ChildProcessByStdio<null, Readable, Readable>): Promise<{
  status: number | string;
  stdout: string;
  stderr: string;
}> {
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const status = await new Promise<number | string>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  return { status, stdout, stderr };
}

/**
 * The model script of an example that talks to a model: `<example>.model.json` beside it (an
 * array of steps), or undefined when the example has none. Such an example reads the server's
 * URL from `OPENAI_BASE_URL`; whoever runs it starts a scripted server playing these steps.
 */
export function exampleModelScript(examplePath: string): readonly ModelStep[] | undefined {
  const script = examplePath.replace(/\.[cm]?[jt]s$/, '.model.json');
  if (script === examplePath || !existsSync(script)) return undefined;
  return JSON.parse(readFileSync(script, 'utf8')) as ModelStep[];
}

/**
 * Runs `node <args>` in `cwd` with a scripted Chat Completions server on 127.0.0.1 playing
 * `steps` (one request each, in order), its URL in `OPENAI_BASE_URL`. Asynchronous, so the server
 * in this process answers while the program runs. Returns what it printed; throws with its
 * output when it exits non-zero or asks the model more than the script holds.
 */
export async function runWithScriptedModel(
  args: readonly string[],
  options: {
    readonly cwd: string;
    readonly steps: readonly ModelStep[];
    readonly env?: NodeJS.ProcessEnv;
    readonly timeoutMs?: number;
  },
): Promise<string> {
  const server = await startStreamingModelServer('openai', options.steps, { script: 'requests' });
  try {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: { ...(options.env ?? process.env), OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'local' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: options.timeoutMs ?? 120_000,
    });
    const { status, stdout, stderr } = await outputOf(child);
    if (status !== 0) throw new Error(`node ${args.join(' ')} exited ${status}:\n${stdout}\n${stderr}`);
    if (server.requests.length !== options.steps.length)
      throw new Error(
        `node ${args.join(' ')} asked the model ${server.requests.length} times; its script has ${options.steps.length} steps:\n${stdout}`,
      );
    return stdout;
  } finally {
    await server.close();
  }
}

/** {@link runExample} for an example with a model script: the scripted server's URL in `OPENAI_BASE_URL`. */
export async function runExampleWithModel(
  packageRoot: string,
  examplePath: string,
  steps: readonly ModelStep[],
  timeoutMs = 120_000,
  start: ExampleStart = 'bundled',
): Promise<string> {
  const { FORCE_COLOR: _forced, ...environment } = process.env;
  return runWithScriptedModel(await exampleArguments(packageRoot, examplePath, start), {
    cwd: packageRoot,
    steps,
    env: { ...environment, NO_COLOR: '1' },
    timeoutMs,
  });
}
