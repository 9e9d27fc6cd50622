import { performance } from 'node:perf_hooks';
import { spawn, type ChildProcess } from 'node:child_process';
import type { WaitingNamespace } from '../network/prepared-network-namespace.js';
import type { BoundedOutput } from './bounded-output.js';
import { launcherCommand } from './process-launcher.js';
import { createCommandCgroup, type CommandCgroup } from './process-cgroup.js';
import { createMemoryCgroup } from './memory-cgroup.js';

/** A program to start: the sandbox (bwrap ...) or, unsandboxed, the limited shell itself. */
export interface ProcessLaunch {
  readonly file: string;
  readonly args: readonly string[];
  /** The complete environment of the started program; nothing is inherited. */
  readonly environment: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** A file the launcher opens on descriptor 3 after closing the inherited ones: the seccomp filter bubblewrap loads. */
  readonly seccompFilterFile?: string;
  /**
   * The prepared network namespace the program must start in (a network allowlist): the waiting
   * process there becomes the program. Such a launch never starts any other way.
   */
  readonly namespace?: WaitingNamespace;
}

/** Options of {@link runProcess}. */
export interface RunProcessOptions {
  readonly launch: ProcessLaunch;
  readonly timeoutMs: number;
  readonly stdin?: string;
  readonly signal?: AbortSignal;
  readonly output: BoundedOutput;
  /** Cap on processes for the pids cgroup, where one can be created. */
  readonly maxProcesses: number;
  /** Where the pids cgroup is created; default the system's pids hierarchy. */
  readonly cgroupRoot?: string;
  /** Memory the whole command may hold (its tmpfs pages included), by a memory cgroup where one can be created. */
  readonly maxMemoryBytes?: number;
  /** Where the memory cgroup is created; default inside this process's own memory cgroup. */
  readonly memoryCgroupRoot?: string;
  /** Called with every chunk of merged output as it arrives. */
  readonly onChunk?: (chunk: Buffer) => void;
}

/** How a process run ended. */
export interface ProcessOutcome {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  readonly durationMs: number;
  /** Forks refused by the per-command process cap (0 where no cgroup could be had). */
  readonly processLimitHits: number;
  /** Whether the whole tree was held in a pids cgroup. */
  readonly contained: boolean;
  /** The memory limit that held the whole command, in bytes; absent where no memory cgroup could be had. */
  readonly memoryLimitBytes?: number;
  /** Processes the kernel killed because the command reached its memory limit. */
  readonly memoryLimitKills?: number;
  /** Set when the program could not be started at all. */
  readonly spawnError?: string;
}

// After the main process exits, output still in flight gets this long before the pipes are cut,
// so a grandchild that kept them open cannot hold the call.
const DRAIN_GRACE_MS = 250;

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is already gone.
  }
}

/** Handles to a started process tree, for the background service. */
export interface StartedProcess {
  readonly pid: number | undefined;
  readonly done: Promise<ProcessOutcome>;
  /** Kills the whole tree (cgroup, process group and, through die-with-parent, the sandbox). */
  kill(reason: 'timeout' | 'cancel'): Promise<void>;
  /** Writes to stdin when it is a pipe. */
  write(data: string): boolean;
  /** Closes stdin. */
  endInput(): void;
}

function spawnLauncher(
  launch: ProcessLaunch,
  stdinPipe: boolean,
  cgroupProcessesFile: string | undefined,
  memoryProcessesFile: string | undefined,
): ChildProcess {
  const { file, args } = launcherCommand(launch, cgroupProcessesFile, memoryProcessesFile);
  // Plain spawn rather than execa: the runner uses none of execa's features (its timeout and
  // buffering are exactly what must not be relied on here) and its per-call setup costs ~3 ms.
  return spawn(file, args, {
    cwd: launch.cwd,
    env: { ...launch.environment },
    detached: true,
    stdio: [stdinPipe ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
}

// The waiting process was started with the launcher's care (only descriptors 0-2 and its control
// socket, detached in its own process group); it joins the cgroups itself, as the launcher does.
function startInNamespace(
  launch: ProcessLaunch,
  namespace: WaitingNamespace,
  stdinPipe: boolean,
  processesFiles: readonly (string | undefined)[],
): ChildProcess {
  return namespace.start({
    file: launch.file,
    args: launch.args,
    environment: launch.environment,
    cwd: launch.cwd,
    ...(launch.seccompFilterFile === undefined ? {} : { seccompFilterFile: launch.seccompFilterFile }),
    processesFiles: processesFiles.filter((file) => file !== undefined),
    stdin: stdinPipe ? 'pipe' : 'null',
  });
}

/**
 * Starts `launch` detached in its own process group (and pids cgroup where possible), merges
 * stdout and stderr into `output` in arrival order, and kills the whole tree on timeout, on
 * abort, and when the main process exits (nothing a call started outlives it).
 */
export function startProcess(options: RunProcessOptions & { readonly keepStdinOpen?: boolean }): StartedProcess {
  const cgroup: CommandCgroup | undefined = createCommandCgroup(options.maxProcesses, options.cgroupRoot);
  const memory =
    options.maxMemoryBytes === undefined
      ? undefined
      : createMemoryCgroup(options.maxMemoryBytes, options.memoryCgroupRoot);
  const { launch } = options;
  const started = performance.now();
  const stdinPipe = options.stdin !== undefined || options.keepStdinOpen === true;
  const subprocess = launch.namespace
    ? startInNamespace(launch, launch.namespace, stdinPipe, [cgroup?.processesFile, memory?.processesFile])
    : spawnLauncher(launch, stdinPipe, cgroup?.processesFile, memory?.processesFile);
  let timedOut = false;
  let cancelled = false;
  const kill = async (reason: 'timeout' | 'cancel') => {
    if (reason === 'timeout') timedOut = true;
    else cancelled = true;
    killGroup(subprocess.pid);
    await cgroup?.killAll();
  };
  const onData = (chunk: Buffer) => {
    options.output.push(chunk);
    options.onChunk?.(chunk);
  };
  subprocess.stdout?.on('data', onData);
  subprocess.stderr?.on('data', onData);
  if (options.stdin !== undefined) {
    subprocess.stdin?.on('error', () => undefined);
    if (options.keepStdinOpen) subprocess.stdin?.write(options.stdin);
    else subprocess.stdin?.end(options.stdin);
  }
  const timer = setTimeout(() => void kill('timeout'), options.timeoutMs);
  const onAbort = () => void kill('cancel');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();

  const done = new Promise<ProcessOutcome>((resolve) => {
    let spawnError: string | undefined;
    subprocess.on('error', (error) => {
      spawnError = error.message;
    });
    subprocess.on('exit', (exitCode, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      const drained = Promise.all(
        [subprocess.stdout, subprocess.stderr].map(
          (stream) =>
            new Promise<void>((streamDone) =>
              stream && !stream.readableEnded ? stream.once('close', () => streamDone()) : streamDone(),
            ),
        ),
      );
      const processLimitHits = cgroup?.processLimitHits() ?? 0;
      killGroup(subprocess.pid);
      void (cgroup?.killAll() ?? Promise.resolve()).then(async () => {
        await Promise.race([drained, new Promise((wait) => setTimeout(wait, DRAIN_GRACE_MS))]);
        subprocess.stdout?.destroy();
        subprocess.stderr?.destroy();
        cgroup?.remove();
        const memoryLimitKills = memory?.oomKills() ?? 0;
        memory?.remove();
        resolve({
          exitCode,
          signal,
          timedOut,
          cancelled,
          durationMs: performance.now() - started,
          processLimitHits,
          contained: cgroup !== undefined,
          ...(memory ? { memoryLimitBytes: memory.limitBytes, memoryLimitKills } : {}),
          ...(spawnError && exitCode === null ? { spawnError } : {}),
        });
      });
    });
    subprocess.on('error', () => {
      if (subprocess.pid !== undefined) return;
      clearTimeout(timer);
      cgroup?.remove();
      memory?.remove();
      resolve({
        exitCode: null,
        signal: null,
        timedOut: false,
        cancelled,
        durationMs: performance.now() - started,
        processLimitHits: 0,
        contained: false,
        spawnError: spawnError ?? 'the program could not be started',
      });
    });
  });
  return {
    pid: subprocess.pid,
    done,
    kill,
    write: (data) => subprocess.stdin?.write(data) ?? false,
    endInput: () => subprocess.stdin?.end(),
  };
}

/** Runs `launch` to the end; see {@link startProcess}. */
export function runProcess(options: RunProcessOptions): Promise<ProcessOutcome> {
  return startProcess(options).done;
}
