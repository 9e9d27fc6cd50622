import type { SandboxLimits } from '../sandbox/sandbox-plan.js';

/** Which resource limit stopped or hindered a command. */
export type ReachedLimit = 'memory' | 'temporary_space' | 'processes' | 'file_size' | 'cpu_time';

/** What {@link reachedLimits} reads from a finished run. */
export interface LimitObservation {
  readonly signal: string | null;
  readonly processLimitHits: number;
  readonly memoryLimitKills: number;
  readonly output: string;
}

function size(bytes: number): string {
  const gibibytes = bytes / 1024 ** 3;
  return gibibytes >= 1 && Number.isInteger(gibibytes) ? `${gibibytes} GiB` : `${Math.round(bytes / 1024 ** 2)} MiB`;
}

// A private tmpfs that is full answers writes with ENOSPC; the workspace is a real folder, so this
// message is the command's /tmp (or a hidden home) unless the host's own disk is full too.
const NO_SPACE = /No space left on device|ENOSPC/;

/** The limits a run reached, each with what it is and how to raise it, in words for the result. */
export function reachedLimits(
  run: LimitObservation,
  limits: SandboxLimits,
): { readonly limit: ReachedLimit; readonly note: string }[] {
  const reached: { limit: ReachedLimit; note: string }[] = [];
  if (run.memoryLimitKills > 0)
    reached.push({
      limit: 'memory',
      note: `Memory limit reached: the command held ${size(limits.commandMemoryBytes)} (its processes and its private /tmp together) and the kernel killed ${run.memoryLimitKills} of its processes. Use less memory or /tmp, or raise limits.commandMemoryBytes in the command sandbox options.`,
    });
  if (NO_SPACE.test(run.output))
    reached.push({
      limit: 'temporary_space',
      note: `A write failed with "No space left on device": the private /tmp, /var/tmp and hidden home folders hold at most ${size(limits.temporaryBytes)} each. Write large files inside the workspace, or raise limits.temporaryBytes in the command sandbox options.`,
    });
  if (run.processLimitHits > 0)
    reached.push({
      limit: 'processes',
      note: `Process limit reached: ${run.processLimitHits} forks were refused at ${limits.processes} processes. Run fewer processes at once, or raise limits.processes in the command sandbox options.`,
    });
  if (run.signal === 'SIGXFSZ')
    reached.push({
      limit: 'file_size',
      note: `File size limit reached (SIGXFSZ): no file may grow past ${size(limits.fileSizeBytes)}. Raise limits.fileSizeBytes in the command sandbox options.`,
    });
  if (run.signal === 'SIGXCPU')
    reached.push({
      limit: 'cpu_time',
      note: `CPU time limit reached (SIGXCPU): ${limits.cpuSeconds} s of processor time. Raise limits.cpuSeconds in the command sandbox options.`,
    });
  return reached;
}
