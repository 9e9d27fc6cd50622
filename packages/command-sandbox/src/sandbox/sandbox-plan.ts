import { posix } from 'node:path';
import { PROTECTED_PATHS } from '@clawsmith/tool-protocol';
import type { ProtectedLocations } from './protected-locations.js';
import type { NetworkBridge } from '../network/network-bridge.js';
import { writableGitFolderMounts } from './git-folder-guard.js';

/** POSIX resource limits applied to every command (rlimits; processes also by cgroup where possible). */
export interface SandboxLimits {
  /** CPU seconds (RLIMIT_CPU). Default 300. */
  readonly cpuSeconds: number;
  /** Largest file a command may write, in bytes (RLIMIT_FSIZE). Default 1 GiB. */
  readonly fileSizeBytes: number;
  /** Open files per process (RLIMIT_NOFILE). Default 1,024. */
  readonly openFiles: number;
  /** Processes: RLIMIT_NPROC (per user) and, where the pids cgroup is writable, per command. Default 1,024. */
  readonly processes: number;
  /** Address space per process, in bytes (RLIMIT_AS: allocations beyond it fail). Default 4 GiB. */
  readonly memoryBytes: number;
  /** Size of each private tmpfs (`/tmp`, `/var/tmp`, hidden folders), in bytes. Default 512 MiB. */
  readonly temporaryBytes: number;
  /**
   * Memory the whole command may hold, in bytes: every process together, and the pages of its
   * private `/tmp` and other tmpfs (a memory cgroup, where one can be created: root or a
   * delegated cgroup). Past it the kernel kills a process of the command. Default 2 GiB.
   */
  readonly commandMemoryBytes: number;
}

/** The default {@link SandboxLimits}. */
export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = Object.freeze({
  cpuSeconds: 300,
  fileSizeBytes: 1024 * 1024 * 1024,
  openFiles: 1024,
  processes: 1024,
  memoryBytes: 4 * 1024 * 1024 * 1024,
  temporaryBytes: 512 * 1024 * 1024,
  commandMemoryBytes: 2 * 1024 * 1024 * 1024,
});

/**
 * One mount of the sandbox, applied in order (a later mount covers an earlier one):
 * `read-only` and `read-write` bind a host path, `tmpfs` is an empty private folder,
 * `read-only-empty` an empty folder nobody can write, `devices` a minimal /dev, `processes` a /proc
 * of the sandbox's own PID namespace.
 */
export interface SandboxMount {
  /** What is mounted: a bind (`read-only`, `read-write`), the capture `overlay`, a memory-backed `tmpfs`, an empty read-only placeholder (`read-only-empty`), or the sandbox's own `/dev` (`devices`) and `/proc` (`processes`). */
  readonly kind: 'read-only' | 'read-write' | 'overlay' | 'tmpfs' | 'read-only-empty' | 'devices' | 'processes';
  /** Host path for binds (for `overlay`, the read-only lower folder); the same as `target` unless said otherwise. */
  readonly source?: string;
  /** `overlay` only: the folder that receives every write, and overlayfs's scratch folder beside it. */
  readonly upper?: string;
  /** `overlay` only: overlayfs's scratch folder, beside `upper` on the same file system. */
  readonly work?: string;
  /** Path inside the sandbox. */
  readonly target: string;
  /** Why this mount exists, for reports and the macOS profile. */
  readonly purpose: string;
  /** Largest size of a `tmpfs`, in bytes (memory-backed: unbounded, it could fill the host's RAM). */
  readonly sizeBytes?: number;
  /** `overlay` only: where the setup step binds the lower folder before the overlay covers it (git folders are bound from there). */
  readonly lowerView?: string;
  /** A placeholder the launcher writes on the host with this content before the run (and removes after), instead of an empty file. */
  readonly placeholderContent?: string;
}

/** Which namespaces the sandbox unshares. */
export interface SandboxNamespaces {
  /** A user namespace: the command holds no capability of the host. */
  readonly user: boolean;
  /** A process namespace: the command sees and signals only its own processes. */
  readonly pid: boolean;
  /** A network namespace (loopback only) unless the plan gives the command the network. */
  readonly network: boolean;
  /** An IPC namespace: no System V or POSIX message queues and shared memory of the host. */
  readonly ipc: boolean;
  /** A UTS namespace: host and domain names the command sets stay inside. */
  readonly uts: boolean;
  /** A cgroup namespace, where the kernel offers one (`--unshare-cgroup-try`). */
  readonly cgroup: boolean;
}

/**
 * Everything a sandboxed command run is, as data: built by {@link buildSandboxPlan} (pure),
 * turned into a bubblewrap command line or a macOS `sandbox-exec` profile, then run. A later
 * change can add an overlay mount without touching the runners.
 */
export interface SandboxPlan {
  /** The shape of this plan; bumped when a runner must read it differently. */
  readonly version: 1;
  /** Real absolute path of the workspace. */
  readonly workspaceRoot: string;
  /** Real absolute folder the command starts in, inside the workspace. */
  readonly workingDirectory: string;
  /** Mounts in the order they are made: a later one covers an earlier one at the same path. */
  readonly mounts: readonly SandboxMount[];
  /** Which namespaces are unshared. */
  readonly namespaces: SandboxNamespaces;
  /** Whether the command may reach the network (the host's network namespace is shared). */
  readonly network: boolean;
  /**
   * `denied` (without the network): a seccomp filter makes `socket(AF_UNIX)` and datagram
   * socket pairs fail with EPERM, so no Unix socket of the host is reachable, wherever it lies;
   * connected stream pairs (pipes between processes) still work. `allowed` with the network.
   */
  readonly unixSockets: 'denied' | 'allowed';
  /** A new session: the command cannot inject input into the caller's terminal (TIOCSTI). */
  readonly newSession: boolean;
  /** The sandbox dies when the process that started it dies. */
  readonly dieWithParent: boolean;
  /** Every capability is dropped. */
  readonly dropCapabilities: boolean;
  /** The complete environment: nothing else is inherited. */
  readonly environment: Readonly<Record<string, string>>;
  /** Time, output and resource limits the command runs under. */
  readonly limits: SandboxLimits;
  /** Absolute paths inside the workspace that the command may read and never write. */
  readonly protectedPaths: readonly string[];
  /** Folders hidden from the command (home folders, sockets); those inside the workspace too. */
  readonly hiddenPaths: readonly string[];
  /** Absent protected paths where bubblewrap creates an empty mount point on the host; removed after the run. */
  readonly placeholders: readonly string[];
  /** The shell text to run, and the shell that runs it. */
  readonly command: { readonly shell: string; readonly text: string };
  /** The user and group the command runs as inside the sandbox, when they must be set (overlay capture). */
  readonly identity?: { readonly uid: number; readonly gid: number };
  /**
   * A network allowlist: the command runs behind the bridge to the proxy, which loads the Unix
   * socket filter itself (after forking the bridge) instead of bubblewrap's `--seccomp`.
   */
  readonly networkBridge?: NetworkBridge;
  /**
   * A network allowlist through a network namespace prepared ahead: bubblewrap starts inside it
   * (so `namespaces.network` is false: it makes none of its own), and the namespace's only way out
   * is the proxy. Such a plan can only be launched by the waiting namespace itself.
   */
  readonly preparedNetwork?: { readonly domains: readonly string[] };
}

/** What a path is on the host, as the plan builder needs to know. */
export type PathKind = 'directory' | 'file' | 'missing';

/** Input of {@link buildSandboxPlan}. Host facts come in as data so the function stays pure. */
export interface SandboxPlanInput {
  /** Real absolute path of the workspace. */
  readonly workspaceRoot: string;
  /** Real absolute working folder, inside the workspace. */
  readonly workingDirectory: string;
  /** The shell text to run. */
  readonly commandText: string;
  /** Whether the command gets the host network (else loopback only, or the allowlist proxy). */
  readonly network: boolean;
  /** The complete environment, already filtered by the allowlist. */
  readonly environment: Readonly<Record<string, string>>;
  /** Time, output and resource limits. */
  readonly limits: SandboxLimits;
  /** Workspace-relative paths to mount read-only, added to {@link PROTECTED_SANDBOX_PATHS}. */
  readonly protectedPaths?: readonly string[];
  /** Where the protected paths are, found on the host; without it only the root is looked at, through `pathKind`. */
  readonly protectedLocations?: ProtectedLocations;
  /** Host folders hidden behind an empty tmpfs (home folders, sockets). */
  readonly hiddenPaths?: readonly string[];
  /** What each absolute path is on the host. */
  readonly pathKind: (path: string) => PathKind;
  /**
   * The command runs on a fresh pseudo-terminal that only it holds. It then keeps that terminal
   * as its controlling terminal (no new session): injecting input there reaches only itself.
   */
  readonly privateTerminal?: boolean;
  /**
   * Overlay capture: the workspace is seen through an overlay whose writes land in `upper`
   * (the real workspace stays untouched until they are applied); `root` holds both folders and
   * is hidden from the command. `identity` is the user the command keeps inside the sandbox.
   */
  readonly capture?: {
    readonly root: string;
    readonly upper: string;
    readonly work: string;
    /** An empty folder where the setup step binds the real workspace before mounting the overlay; without it git folders stay read-only. */
    readonly lowerView?: string;
    readonly identity: { readonly uid: number; readonly gid: number };
  };
}

/**
 * The one protected list (tool-protocol's `PROTECTED_PATHS`) as workspace-relative paths; a
 * trailing `/` marks a folder. Commands see them read-only at any depth, and the absent ones at
 * the root cannot be created.
 */
export const PROTECTED_SANDBOX_PATHS: readonly string[] = Object.freeze(
  PROTECTED_PATHS.map((entry) => (entry.extent === 'tree' ? `${entry.path}/` : entry.path)),
);

function inside(folder: string, path: string): boolean {
  return path === folder || path.startsWith(`${folder}/`);
}

/** Root-level locations from `pathKind` alone, when the caller did not search the workspace. */
function rootLocations(input: SandboxPlanInput): ProtectedLocations {
  const existing: string[] = [];
  const absent: { path: string; folder: boolean }[] = [];
  for (const written of [...PROTECTED_SANDBOX_PATHS, ...(input.protectedPaths ?? [])]) {
    const target = posix.join(input.workspaceRoot, written.replace(/\/+$/, ''));
    if (existing.some((folder) => inside(folder, target))) continue;
    if (input.pathKind(target) !== 'missing') existing.push(target);
    else if (
      input.pathKind(posix.dirname(target)) === 'directory' &&
      !existing.some((folder) => inside(folder, posix.dirname(target)))
    )
      absent.push({ path: target, folder: written.endsWith('/') });
  }
  return { existing, absent, linkedGitFolders: [], symlinks: [], unsearchedFolders: 0 };
}

function protectedMounts(
  input: SandboxPlanInput,
  hiddenInside: readonly string[],
  hiddenOutside: readonly string[],
): { mounts: SandboxMount[]; paths: string[]; placeholders: string[] } {
  const locations = input.protectedLocations ?? rootLocations(input);
  const mounts: SandboxMount[] = [];
  const paths: string[] = [];
  const placeholders: string[] = [];
  // A path under a hidden folder stays hidden: binding it would show it again.
  const visible = (path: string) => !hiddenInside.some((folder) => inside(folder, path));
  const { capture } = input;
  for (const target of locations.existing) {
    if (!visible(target)) continue;
    const relative = posix.relative(input.workspaceRoot, target);
    const gitFolder = locations.writableGitFolders?.find((folder) => folder.path === target);
    // Captured, a git folder is bound from the lower view: git's state is not workspace content to capture.
    const source = capture ? capture.lowerView && posix.join(capture.lowerView, relative) : target;
    if (gitFolder && source) {
      const git = writableGitFolderMounts(gitFolder, source, relative);
      mounts.push(...git.mounts);
      placeholders.push(...git.placeholders);
    } else mounts.push({ kind: 'read-only', source: target, target, purpose: `protected: ${relative}` });
    paths.push(target);
  }
  // Captured, a protected path that is a link runs with where it leads read-only (a change of the
  // link itself is refused when applied); uncaptured, the launcher refuses such a command.
  if (capture) {
    for (const link of locations.symlinks) {
      const target = link.realTarget;
      if (target === undefined || !visible(target) || hiddenOutside.some((folder) => inside(folder, target))) continue;
      const relative = posix.relative(input.workspaceRoot, link.path);
      mounts.push({
        kind: 'read-only',
        source: target,
        target,
        purpose: `protected: where the link ${relative} leads`,
      });
      paths.push(target);
    }
  }
  for (const { path: target, folder } of locations.absent) {
    if (!visible(target)) continue;
    const relative = posix.relative(input.workspaceRoot, target);
    // Absent but creatable: an empty read-only folder (or /dev/null for a file) stops the command
    // from planting it. bubblewrap leaves the empty mount point on the host; the launcher removes it.
    mounts.push(
      folder
        ? { kind: 'read-only-empty', target, purpose: `protected (absent): ${relative}` }
        : { kind: 'read-only', source: '/dev/null', target, purpose: `protected (absent): ${relative}` },
    );
    paths.push(target);
    placeholders.push(target);
  }
  return { mounts, paths, placeholders };
}

/**
 * Builds the sandbox plan for one command: read-only root, private /dev, /proc, /tmp and
 * /var/tmp, hidden home folders and /run, the workspace writable, the protected paths read-only,
 * all namespaces unshared (the network too unless allowed), new session, die-with-parent, no
 * capabilities, and exactly the given environment with `TMPDIR=/tmp`.
 */
export function buildSandboxPlan(input: SandboxPlanInput): SandboxPlan {
  const sizeBytes = input.limits.temporaryBytes;
  const mounts: SandboxMount[] = [
    { kind: 'read-only', source: '/', target: '/', purpose: 'the host, read-only' },
    { kind: 'devices', target: '/dev', purpose: 'minimal devices' },
    { kind: 'processes', target: '/proc', purpose: "the sandbox's own processes" },
    { kind: 'tmpfs', target: '/tmp', purpose: 'private temporary folder', sizeBytes },
    { kind: 'tmpfs', target: '/var/tmp', purpose: 'private temporary folder', sizeBytes },
    { kind: 'tmpfs', target: '/run', purpose: 'hides host sockets (docker, dbus)', sizeBytes },
  ];
  const hidden = (input.hiddenPaths ?? []).filter((path) => path !== '/' && input.pathKind(path) === 'directory');
  const hiddenInside = hidden.filter((path) => path !== input.workspaceRoot && inside(input.workspaceRoot, path));
  for (const path of hidden) {
    // The workspace is bound after this, so a workspace inside a hidden home stays reachable.
    if (!hiddenInside.includes(path))
      mounts.push({ kind: 'tmpfs', target: path, purpose: 'hidden host folder', sizeBytes });
  }
  const { capture } = input;
  if (capture)
    mounts.push({ kind: 'tmpfs', target: capture.root, purpose: 'hides the capture folder', sizeBytes: 1024 * 1024 });
  mounts.push(
    capture
      ? {
          kind: 'overlay',
          source: input.workspaceRoot,
          target: input.workspaceRoot,
          upper: capture.upper,
          work: capture.work,
          ...(capture.lowerView ? { lowerView: capture.lowerView } : {}),
          purpose: 'the workspace, writes captured for checkpoint and undo',
        }
      : { kind: 'read-write', source: input.workspaceRoot, target: input.workspaceRoot, purpose: 'the workspace' },
  );
  // Parents first: a worktree's own folder sits inside the common folder, whose bind would cover it.
  const linked = [...(input.protectedLocations?.linkedGitFolders ?? [])].sort(
    (left, right) => left.length - right.length,
  );
  const linkedPlaceholders: string[] = [];
  for (const folder of linked) {
    // A worktree's repository lives outside the workspace, maybe in a hidden home: git needs it,
    // writable where its code entries can be guarded, read-only whole otherwise.
    if (inside(input.workspaceRoot, folder)) continue;
    const writable = input.protectedLocations?.writableGitFolders?.find((entry) => entry.path === folder);
    if (!writable) {
      mounts.push({
        kind: 'read-only',
        source: folder,
        target: folder,
        purpose: 'the git folder of a linked worktree',
      });
      continue;
    }
    const git = writableGitFolderMounts(writable, folder, folder);
    mounts.push(...git.mounts);
    linkedPlaceholders.push(...git.placeholders);
  }
  const protectedPaths = protectedMounts(
    input,
    hiddenInside,
    hidden.filter((path) => !hiddenInside.includes(path)),
  );
  protectedPaths.placeholders.unshift(...linkedPlaceholders);
  mounts.push(...protectedPaths.mounts);
  // Hidden folders inside the workspace are covered last, so the workspace bind cannot undo them.
  for (const path of hiddenInside)
    mounts.push({ kind: 'tmpfs', target: path, purpose: 'hidden folder in the workspace', sizeBytes });
  return {
    version: 1,
    workspaceRoot: input.workspaceRoot,
    workingDirectory: input.workingDirectory,
    mounts,
    namespaces: { user: true, pid: true, network: !input.network, ipc: true, uts: true, cgroup: true },
    network: input.network,
    unixSockets: input.network ? 'allowed' : 'denied',
    newSession: input.privateTerminal !== true,
    dieWithParent: true,
    dropCapabilities: true,
    environment: { ...input.environment, TMPDIR: '/tmp' },
    limits: input.limits,
    protectedPaths: protectedPaths.paths,
    hiddenPaths: hidden,
    placeholders: protectedPaths.placeholders,
    command: { shell: '/bin/bash', text: input.commandText },
    ...(capture ? { identity: capture.identity } : {}),
  };
}

/**
 * The argv that applies the limits, merges stderr into stdout in arrival order, then runs the
 * command text, all in one clean bash (no profile, no rc, so `BASH_ENV` and `.bashrc` are never
 * read). bash counts `ulimit -f` in 1024-byte blocks and sets soft and hard limits together, so
 * the command cannot raise them again. `/bin/sh` is not used: dash's `ulimit` has other letters.
 */
export function limitedCommandArguments(plan: Pick<SandboxPlan, 'limits' | 'command'>): string[] {
  const { limits } = plan;
  const kibibytes = Math.max(1, Math.floor(limits.fileSizeBytes / 1024));
  const memoryKibibytes = Math.max(1, Math.floor(limits.memoryBytes / 1024));
  const prelude = `ulimit -t ${limits.cpuSeconds} -f ${kibibytes} -n ${limits.openFiles} -u ${limits.processes} -v ${memoryKibibytes} || exit 125\nexec 2>&1\n`;
  return [plan.command.shell, '--noprofile', '--norc', '-c', `${prelude}${plan.command.text}`];
}
