// Test helper: the built `clawsmith` binary as a real child process on a given home (the cli
// depends on this package, so it is resolved at run time; its `build` runs before this package's
// tests).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export const CLI_BIN = join(
  dirname(createRequire(import.meta.url).resolve('@clawsmith/cli/package.json')),
  'dist/bin.js',
);

/** How a `clawsmith` child ended. */
export interface ClawsmithExit {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A running `clawsmith` child: the process, and a promise of how it ended. */
export interface ClawsmithProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<ClawsmithExit>;
}

/** The parent's environment without anything that would pick a real model or change node. */
export function childEnvironment(): Record<string, string | undefined> {
  const environment: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
  for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'CLAWSMITH_PROVIDER', 'CLAWSMITH_MODEL', 'NODE_OPTIONS'])
    delete environment[name];
  return environment;
}

/** Starts `clawsmith <args> --home <home>`. */
export function spawnClawsmith(home: string, args: readonly string[], cwd?: string): ClawsmithProcess {
  if (!existsSync(CLI_BIN)) throw new Error(`${CLI_BIN} is missing; build the cli (npx nx run @clawsmith/cli:build).`);
  const child = spawn(process.execPath, [CLI_BIN, ...args, '--home', home], {
    ...(cwd ? { cwd } : {}),
    env: childEnvironment(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<ClawsmithExit>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, exited };
}

/** The `[code]` a failed `clawsmith` command printed on stderr. */
export function errorCode(stderr: string): string | undefined {
  return /\[([a-z_]+)\]\s*$/m.exec(stderr)?.[1];
}
