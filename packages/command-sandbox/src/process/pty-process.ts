import { constants } from 'node:os';
import { performance } from 'node:perf_hooks';
import type * as NodePtyModule from '@lydell/node-pty';
import type { IPty } from '@lydell/node-pty';
import { launcherCommand } from './process-launcher.js';
import { createCommandCgroup } from './process-cgroup.js';
import type { ProcessLaunch, ProcessOutcome, StartedProcess } from './process-runner.js';

type NodePty = typeof NodePtyModule;
let ptyModule: Promise<NodePty | undefined> | undefined;

/** Loads the PTY library once; undefined where its prebuilt binary does not load. */
export function loadPty(): Promise<NodePty | undefined> {
  ptyModule ??= import('@lydell/node-pty').then(
    (module) => (module as NodePty & { default?: NodePty }).default ?? module,
    () => undefined,
  );
  return ptyModule;
}

/** A started process on a pseudo-terminal: a {@link StartedProcess} that can also be resized. */
export interface StartedPtyProcess extends StartedProcess {
  resize(columns: number, rows: number): void;
}

/**
 * Starts `launch` on a new pseudo-terminal (its own session and process group) inside a pids
 * cgroup where possible. Timeout, cancel and the end of the main process kill the whole tree.
 */
export function startPtyProcess(
  pty: NodePty,
  options: {
    launch: ProcessLaunch;
    columns: number;
    rows: number;
    timeoutMs: number;
    maxProcesses: number;
    cgroupRoot?: string;
    onChunk: (chunk: Buffer) => void;
  },
): StartedPtyProcess {
  const cgroup = createCommandCgroup(options.maxProcesses, options.cgroupRoot);
  const { launch } = options;
  const { file, args } = launcherCommand(launch, cgroup?.processesFile);
  const started = performance.now();
  const terminal: IPty = pty.spawn(file, args, {
    name: 'xterm-256color',
    cols: options.columns,
    rows: options.rows,
    cwd: launch.cwd,
    env: { ...launch.environment, TERM: 'xterm-256color' },
    encoding: null,
  } as Parameters<NodePty['spawn']>[2]);
  let timedOut = false;
  let cancelled = false;
  let exited = false;
  const killTree = async () => {
    try {
      process.kill(-terminal.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    await cgroup?.killAll();
  };
  const kill = async (reason: 'timeout' | 'cancel') => {
    if (exited) return;
    if (reason === 'timeout') timedOut = true;
    else cancelled = true;
    await killTree();
  };
  terminal.onData((data: string | Buffer) => options.onChunk(Buffer.isBuffer(data) ? data : Buffer.from(data)));
  const timer = setTimeout(() => void kill('timeout'), options.timeoutMs);
  const done = new Promise<ProcessOutcome>((resolve) => {
    terminal.onExit(({ exitCode, signal }) => {
      exited = true;
      clearTimeout(timer);
      const processLimitHits = cgroup?.processLimitHits() ?? 0;
      void killTree().then(() => {
        cgroup?.remove();
        resolve({
          exitCode: signal ? null : exitCode,
          signal: signal
            ? (Object.entries(constants.signals).find(([, number]) => number === signal)?.[0] ?? `signal ${signal}`)
            : null,
          timedOut,
          cancelled,
          durationMs: performance.now() - started,
          processLimitHits,
          contained: cgroup !== undefined,
        });
      });
    });
  });
  return {
    pid: terminal.pid,
    done,
    kill,
    write: (data) => {
      terminal.write(data);
      return true;
    },
    endInput: () => terminal.write('\u0004'),
    resize: (columns, rows) => terminal.resize(columns, rows),
  };
}
