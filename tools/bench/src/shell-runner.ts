// A long-lived `sh` that runs command lines sent over a pipe, so a benchmark can time a command
// (wall time, as the benchmark sees it) without forking inside its measuring loop.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';

/** One shell child; `run` resolves with the wall time in ms once the command has finished. */
export interface ShellRunner {
  run(command: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * Starts `sh` with `env`. Forking a process marks every page of the forking process
 * copy-on-write, and the next work there pays page faults: timing a reference with
 * `execFileSync` between samples slows the samples that follow (see checkpoints.bench.ts).
 */
export function startShell(env: NodeJS.ProcessEnv): ShellRunner {
  const child = spawn('sh', [], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting: ((status: number) => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => waiting.shift()?.(Number(line)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    async run(command) {
      const start = performance.now();
      const status = await new Promise<number>((resolve) => {
        waiting.push(resolve);
        child.stdin.write(`{ ${command}; } >/dev/null 2>&1; echo $?\n`);
      });
      const spent = performance.now() - start;
      if (status !== 0) throw new Error(`"${command}" failed with status ${status}`);
      return spent;
    },
    async close() {
      child.stdin.end();
      await exited;
    },
  };
}
