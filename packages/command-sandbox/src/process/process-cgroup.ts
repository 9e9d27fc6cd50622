import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A pids cgroup holding one command and every process it ever forks. It caps the number of
 * processes (RLIMIT_NPROC does not bind root), and it kills the whole tree, even processes that
 * called `setsid` or double-forked, because cgroup membership is inherited and cannot be left
 * without privileges the sandbox drops.
 */
export interface CommandCgroup {
  /** The file a process writes its pid to in order to join. */
  readonly processesFile: string;
  /** Kills every process in the cgroup; resolves when it is empty (or after a bounded wait). */
  killAll(): Promise<void>;
  /** How many forks the process cap refused so far. */
  processLimitHits(): number;
  /** Removes the cgroup; call after {@link CommandCgroup.killAll}. */
  remove(): void;
}

const CANDIDATE_ROOTS = ['/sys/fs/cgroup/pids', '/sys/fs/cgroup/unified', '/sys/fs/cgroup'];

function pidsIn(folder: string): number[] {
  try {
    return readFileSync(join(folder, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function tryCreate(root: string, maxProcesses: number): CommandCgroup | undefined {
  if (!existsSync(join(root, 'cgroup.procs'))) return undefined;
  const parent = join(root, 'clawsmith');
  const folder = join(parent, `command-${process.pid}-${randomBytes(6).toString('hex')}`);
  try {
    mkdirSync(folder, { recursive: true });
    if (!existsSync(join(folder, 'pids.max'))) {
      rmdirSync(folder);
      return undefined;
    }
    writeFileSync(join(folder, 'pids.max'), String(maxProcesses));
  } catch {
    try {
      rmdirSync(folder);
    } catch {
      // Nothing was created.
    }
    return undefined;
  }
  return {
    processesFile: join(folder, 'cgroup.procs'),
    async killAll() {
      if (existsSync(join(folder, 'cgroup.kill'))) {
        try {
          writeFileSync(join(folder, 'cgroup.kill'), '1');
        } catch {
          // Fall back to signalling each process below.
        }
      }
      // Processes of a torn-down PID namespace linger for a moment: poll with a short backoff.
      for (let round = 0, delay = 1; round < 60; round += 1, delay = Math.min(delay * 2, 25)) {
        const pids = pidsIn(folder);
        if (pids.length === 0) return;
        for (const pid of pids) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // Already gone.
          }
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    },
    processLimitHits() {
      try {
        const match = /max (\d+)/.exec(readFileSync(join(folder, 'pids.events'), 'utf8'));
        return match ? Number(match[1]) : 0;
      } catch {
        return 0;
      }
    },
    remove() {
      try {
        rmdirSync(folder);
      } catch {
        // Still busy or already gone; the kernel frees an empty cgroup folder when removed later.
      }
    },
  };
}

let usableRoot: string | null | undefined;

/**
 * A new pids cgroup for one command, or undefined where none can be created (not root, no pids
 * controller). `root` names the cgroup folder to create it under (a delegated subtree); without
 * it the system's pids hierarchy is found once and remembered.
 */
export function createCommandCgroup(maxProcesses: number, root?: string): CommandCgroup | undefined {
  if (root !== undefined) return tryCreate(root, maxProcesses);
  if (usableRoot === null) return undefined;
  for (const root of usableRoot ? [usableRoot] : CANDIDATE_ROOTS) {
    const cgroup = tryCreate(root, maxProcesses);
    if (cgroup) {
      usableRoot = root;
      return cgroup;
    }
  }
  usableRoot = null;
  return undefined;
}
