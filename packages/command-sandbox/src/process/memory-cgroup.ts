import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A memory cgroup holding one command: everything its processes hold in memory, and the pages of
 * its private `/tmp` (tmpfs pages are charged to the cgroup of the process that wrote them), is
 * bounded together. Past the limit the kernel kills a process of the command (OOM kill).
 */
export interface MemoryCgroup {
  /** The file a process writes its pid to in order to join. */
  readonly processesFile: string;
  /** The limit, in bytes. */
  readonly limitBytes: number;
  /** How many processes the kernel killed because the command reached the limit. */
  oomKills(): number;
  /** Removes the cgroup; call once its processes are gone. */
  remove(): void;
}

interface Flavour {
  readonly limitFile: string;
  readonly oomKills: (folder: string) => number;
}

function counter(file: string, name: string): number {
  try {
    const match = new RegExp(`^${name} (\\d+)$`, 'm').exec(readFileSync(file, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

const VERSION_1: Flavour = {
  limitFile: 'memory.limit_in_bytes',
  oomKills: (folder) => counter(join(folder, 'memory.oom_control'), 'oom_kill'),
};
const VERSION_2: Flavour = {
  limitFile: 'memory.max',
  oomKills: (folder) => counter(join(folder, 'memory.events'), 'oom_kill'),
};

/** The memory cgroup this process is in (v1 `memory` line, else the v2 `0::` line), as a path under its hierarchy. */
function ownPath(version: 1 | 2): string | undefined {
  try {
    for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
      const [, controllers, path] = line.split(':');
      if (path === undefined) continue;
      if (version === 1 && controllers?.split(',').includes('memory')) return path;
      if (version === 2 && line.startsWith('0::')) return path;
    }
  } catch {
    // No /proc: no memory cgroup.
  }
  return undefined;
}

function tryCreate(parent: string, flavour: Flavour, limitBytes: number): MemoryCgroup | undefined {
  if (!existsSync(join(parent, 'cgroup.procs'))) return undefined;
  const folder = join(parent, `clawsmith-command-${process.pid}-${randomBytes(6).toString('hex')}`);
  try {
    mkdirSync(folder);
  } catch {
    return undefined;
  }
  try {
    writeFileSync(join(folder, flavour.limitFile), String(limitBytes));
    if (flavour === VERSION_2) writeFileSync(join(folder, 'memory.swap.max'), '0');
  } catch (error) {
    // Without swap accounting (v2 `memory.swap.max` absent) the limit still holds memory itself.
    if (!(flavour === VERSION_2 && (error as NodeJS.ErrnoException).code === 'ENOENT')) {
      remove(folder);
      return undefined;
    }
  }
  return {
    processesFile: join(folder, 'cgroup.procs'),
    limitBytes,
    oomKills: () => flavour.oomKills(folder),
    remove: () => remove(folder),
  };
}

function remove(folder: string): void {
  try {
    rmdirSync(folder);
  } catch {
    // Still busy or already gone.
  }
}

/**
 * A new memory cgroup for one command, made inside this process's own memory cgroup (so the
 * limits above it still apply), or undefined where none can be created (not root, no memory
 * controller, a v2 parent that does not delegate memory). `root` names the folder to create it
 * in instead (a delegated subtree).
 */
export function createMemoryCgroup(limitBytes: number, root?: string): MemoryCgroup | undefined {
  if (root !== undefined)
    return tryCreate(root, existsSync(join(root, 'memory.max')) ? VERSION_2 : VERSION_1, limitBytes);
  const version1 = ownPath(1);
  if (version1 !== undefined) {
    const made = tryCreate(join('/sys/fs/cgroup/memory', version1), VERSION_1, limitBytes);
    if (made) return made;
  }
  const version2 = ownPath(2);
  if (version2 !== undefined && existsSync('/sys/fs/cgroup/cgroup.controllers'))
    return tryCreate(join('/sys/fs/cgroup', version2), VERSION_2, limitBytes);
  return undefined;
}
