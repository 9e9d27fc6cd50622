import { traceContextEnvironment, type TraceContext } from '@clawsmith/tool-protocol';
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { defaultHomes } from './refusal/catastrophic-targets.js';
import { assertEnvironmentAdditions, buildCommandEnvironment } from './command-environment.js';
import { evaluateCommandSafety } from './refusal/command-safety.js';
import { bubblewrapArguments } from './sandbox/bubblewrap-arguments.js';
import {
  COMMAND_SANDBOX_ERROR_CODES,
  CommandRefusedError,
  CommandSandboxError,
  SandboxUnavailableError,
} from './errors.js';
import type { CaptureMode } from './capture/command-capture.js';
import { overlayLaunch } from './capture/overlay-launch.js';
import { macosSandboxProfile } from './sandbox/macos-sandbox-profile.js';
import { holdPlaceholders } from './sandbox/mount-placeholders.js';
import { realWorkspaceRoot } from './workspace-root.js';
import { isUnixSocketFilterArchitecture } from './sandbox/unix-socket-filter.js';
import { unixSocketFilterFile } from './sandbox/unix-socket-filter-file.js';
import { findProtectedLocations, type ProtectedLocations } from './sandbox/protected-locations.js';
import type { CommandNetworkAllowlist, RefusedHost } from './network/network-allowlist.js';
import { attachNetwork } from './network/sandbox-network.js';
import type { ProcessLaunch } from './process/process-runner.js';
import { sandboxAvailability, type SandboxKind, type SandboxMode } from './sandbox/sandbox-availability.js';
import {
  buildSandboxPlan,
  DEFAULT_SANDBOX_LIMITS,
  limitedCommandArguments,
  type PathKind,
  type SandboxLimits,
  type SandboxPlan,
} from './sandbox/sandbox-plan.js';

/** Configuration shared by `run_command` and the background command service. */
export interface CommandSandboxOptions {
  /** `auto` (default): bubblewrap on Linux, sandbox-exec on macOS, refuse when none works. `off`: run unsandboxed, labelled. */
  readonly sandbox?: SandboxMode;
  /** Whether commands may reach the network. Default false. */
  readonly network?: boolean;
  /**
   * Network only to these domains, through a proxy outside the sandbox (bubblewrap only; with
   * `network: true` it is a configuration error). Refused hosts are listed in the result.
   */
  readonly networkAllowlist?: CommandNetworkAllowlist;
  /** Environment names added to the allowlist (forbidden names are a configuration error). */
  readonly env?: readonly string[];
  /** Where allowlisted values come from; default `process.env`. */
  readonly environmentSource?: Readonly<Record<string, string | undefined>>;
  /** Default timeout in ms; default 120,000. */
  readonly defaultTimeoutMs?: number;
  /** Largest timeout a call may ask for, in ms; default 600,000. */
  readonly maxTimeoutMs?: number;
  /** Output kept in memory and shown, head plus tail, in bytes; default 65,536. */
  readonly outputLimitBytes?: number;
  /** Complete log kept for the artifact, in bytes; default 8 MiB. */
  readonly logLimitBytes?: number;
  /** Resource limits; unset fields keep {@link DEFAULT_SANDBOX_LIMITS}. */
  readonly limits?: Partial<SandboxLimits>;
  /** Workspace-relative paths mounted read-only, added to the one protected list (`.git` at any depth, `.clawsmith`, ...). */
  readonly protectedPaths?: readonly string[];
  /** Host folders hidden behind an empty folder; default the home folders. */
  readonly hiddenPaths?: readonly string[];
  /** Host folders hidden as well as `hiddenPaths` (the clawsmith home, wherever it is). */
  readonly additionalHiddenPaths?: readonly string[];
  /**
   * The bubblewrap program, an absolute path owned by root and writable by nobody else; default
   * `bwrap` from the system folders (never from `PATH`).
   */
  readonly bubblewrapProgram?: string;
  /** Overlay capture of the files `run_command` changes: `auto` (default) wherever it works, `off` never. */
  readonly capture?: CaptureMode;
  /** Folder under which per-call capture folders are made; default the system temporary folder. */
  readonly captureFolder?: string;
  /**
   * The cgroup folder under which each command gets its own pids cgroup (process cap, whole-tree
   * kill): a delegated subtree when clawsmith does not run as root. Default: the system's pids
   * hierarchy, which needs root. Where none can be created, results say the tree was not contained.
   */
  readonly cgroupRoot?: string;
}

/** A command ready to start: its plan, how to start it, and the sandbox it runs in. */
export interface PreparedCommand {
  /** The sandbox plan the command runs under. */
  readonly plan: SandboxPlan;
  /** The program, arguments and environment to start (bubblewrap, or the capture setup before it). */
  readonly launch: ProcessLaunch;
  /** Which sandbox holds the command (`none` when it runs without one, as configured). */
  readonly sandbox: SandboxKind;
  /** Call once the command has ended (or failed to start): removes the empty mount points left on the host. */
  readonly release: () => void;
  /** Whether the workspace is seen through the capture overlay (only inside bubblewrap). */
  readonly captured: boolean;
  /** With a network allowlist: the hosts its proxy refused so far. */
  readonly refusedHosts?: () => RefusedHost[];
}

/** The folders of an overlay capture, as {@link prepareCommand} takes them. */
export interface CaptureFolders {
  readonly root: string;
  readonly upper: string;
  readonly work: string;
  /** Where the setup step binds the real workspace before the overlay covers it. */
  readonly lowerView?: string;
}

/** Checks the options once, at construction, so a bad allowlist fails before any call. */
export function validateSandboxOptions(options: CommandSandboxOptions): void {
  assertEnvironmentAdditions(options.env ?? []);
  if (options.networkAllowlist && (options.network === true || options.sandbox === 'off'))
    throw new CommandSandboxError(
      COMMAND_SANDBOX_ERROR_CODES.sandboxUnavailable,
      `A network allowlist holds only inside the sandbox with the network off: drop ${options.network === true ? '`network: true`' : "`sandbox: 'off'`"} or the allowlist.`,
    );
}

function pathKind(path: string): PathKind {
  try {
    return statSync(path).isDirectory() ? 'directory' : 'file';
  } catch {
    return 'missing';
  }
}

/** The real working folder for `cwd` (workspace-relative), refusing anything outside the workspace. */
export function resolveWorkingDirectory(
  workspaceRoot: string,
  cwd = '.',
): { workspace: string; workingDirectory: string } {
  const workspace = realWorkspaceRoot(workspaceRoot);
  const requested = resolve(workspace, cwd);
  const inside = (path: string) => {
    const difference = relative(workspace, path);
    return difference === '' || (!difference.startsWith('..') && !isAbsolute(difference));
  };
  if (!inside(requested)) {
    throw new CommandSandboxError(
      COMMAND_SANDBOX_ERROR_CODES.workingDirectoryOutsideWorkspace,
      `The working folder ${JSON.stringify(cwd)} is outside the workspace; give a folder relative to the workspace root.`,
    );
  }
  let real: string;
  try {
    real = realpathSync(requested);
  } catch {
    throw new CommandSandboxError(
      COMMAND_SANDBOX_ERROR_CODES.workingDirectoryNotFound,
      `The working folder ${JSON.stringify(cwd)} does not exist; create it first or run from the workspace root.`,
    );
  }
  if (!inside(real)) {
    throw new CommandSandboxError(
      COMMAND_SANDBOX_ERROR_CODES.workingDirectoryOutsideWorkspace,
      `The working folder ${JSON.stringify(cwd)} leads outside the workspace through a symbolic link.`,
    );
  }
  if (pathKind(real) !== 'directory') {
    throw new CommandSandboxError(
      COMMAND_SANDBOX_ERROR_CODES.workingDirectoryNotFound,
      `The working folder ${JSON.stringify(cwd)} is not a folder.`,
    );
  }
  return { workspace, workingDirectory: real };
}

/**
 * A protected path that is a symbolic link in a writable folder could be swapped for a real
 * folder by the command, and a mount cannot cover a link's own location. With capture the
 * command runs (where the link leads is mounted read-only, and any change of the link itself is
 * refused when applied); without capture, or while the link dangles, it is refused with its code.
 */
function refuseSymlinkedProtectedPaths(workspace: string, locations: ProtectedLocations, captured: boolean): void {
  const link = locations.symlinks.find((entry) => !captured || entry.realTarget === undefined);
  if (!link) return;
  const path = relative(workspace, link.path);
  const why = captured
    ? 'it leads nowhere yet, and the command could create what it names'
    : 'without capture (capture off, or overlayfs unavailable here) the command could swap it';
  throw new CommandSandboxError(
    COMMAND_SANDBOX_ERROR_CODES.protectedPathSymlink,
    `The protected path ${path} is a symbolic link (to ${link.target || 'an unreadable target'}); commands do not run while ${why}. Replace the link with the folder or file itself (or delete it), then run the command again.`,
  );
}

/** The Unix socket filter's file, or `sandbox_unavailable` on a machine the filter is not written for. */
function deniedUnixSocketsFilter(): string {
  if (!isUnixSocketFilterArchitecture(process.arch))
    throw new SandboxUnavailableError(
      `the Unix socket filter exists for x64 and arm64 only, not ${process.arch}; without the network option commands cannot be kept from the host's Unix sockets here (set network: true to run them without that wall)`,
    );
  return unixSocketFilterFile();
}

/**
 * Passes the command through the layers that come before running it: the working folder, the
 * catastrophic-command refusal (no approval unlocks it), the minimal environment, the limits and
 * the sandbox plan. Throws `command_refused`, `sandbox_unavailable` or a working-folder error.
 */
export async function prepareCommand(
  options: CommandSandboxOptions,
  workspaceRoot: string,
  commandText: string,
  cwd?: string,
  terminal = false,
  capture?: CaptureFolders,
  traceContext?: TraceContext,
): Promise<PreparedCommand> {
  const { workspace, workingDirectory } = resolveWorkingDirectory(workspaceRoot, cwd);
  const verdict = evaluateCommandSafety(commandText, { workingDirectory, workspaceRoot: workspace });
  if (!verdict.allowed) throw new CommandRefusedError(verdict.rule, verdict.reason);
  const mode = options.sandbox ?? 'auto';
  const availability = mode === 'off' ? undefined : await sandboxAvailability(mode, options.bubblewrapProgram);
  if (availability && !availability.available) throw new SandboxUnavailableError(availability.detail);
  // The trace context is the calling tool call's own (validated), never the host's TRACEPARENT.
  const environment = buildCommandEnvironment({
    source: options.environmentSource,
    additions: options.env ?? [],
    overrides: traceContextEnvironment(traceContext),
  });
  const protectedLocations = availability ? findProtectedLocations(workspace, options.protectedPaths) : undefined;
  const captureIdentity = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
  const captures = capture !== undefined && availability?.kind === 'bubblewrap';
  if (protectedLocations) refuseSymlinkedProtectedPaths(workspace, protectedLocations, captures);
  const basePlan = buildSandboxPlan({
    workspaceRoot: workspace,
    workingDirectory,
    commandText,
    network: options.network ?? false,
    environment,
    limits: { ...DEFAULT_SANDBOX_LIMITS, ...options.limits },
    protectedPaths: options.protectedPaths,
    ...(protectedLocations ? { protectedLocations } : {}),
    hiddenPaths: [...(options.hiddenPaths ?? defaultHomes()), ...(options.additionalHiddenPaths ?? [])],
    pathKind,
    privateTerminal: terminal,
    ...(captures ? { capture: { ...capture, identity: captureIdentity } } : {}),
  });
  const network = options.networkAllowlist
    ? await attachNetwork(basePlan, options.networkAllowlist, availability?.kind ?? 'none', terminal)
    : undefined;
  const plan = network?.plan ?? basePlan;
  const captured = plan.mounts.some((mount) => mount.kind === 'overlay');
  const [limitedShell, ...limitedArgs] = limitedCommandArguments(plan);
  if (!availability) {
    return {
      plan,
      captured,
      sandbox: 'none',
      release: () => undefined,
      launch: { file: limitedShell as string, args: limitedArgs, environment: plan.environment, cwd: workingDirectory },
    };
  }
  if (availability.kind === 'sandbox-exec') {
    const args = ['-p', macosSandboxProfile(plan), limitedShell as string, ...limitedArgs];
    return {
      plan,
      captured,
      sandbox: 'sandbox-exec',
      release: () => undefined,
      launch: { file: availability.program, args, environment: plan.environment, cwd: workingDirectory },
    };
  }
  // bwrap itself gets only the allowlisted environment, so not even its own /proc/<pid>/environ
  // (visible as the sandbox's PID 1) holds a secret of the caller.
  const launch: ProcessLaunch = {
    file: availability.program,
    args: bubblewrapArguments(plan),
    environment: plan.environment,
    cwd: workingDirectory,
    ...(plan.unixSockets === 'denied' && !plan.networkBridge ? { seccompFilterFile: deniedUnixSocketsFilter() } : {}),
    ...(network?.namespace ? { namespace: network.namespace } : {}),
  };
  let release: () => void;
  try {
    release = holdPlaceholdersOrRefuse(plan);
  } catch (error) {
    network?.release();
    throw error;
  }
  return {
    plan,
    captured,
    sandbox: 'bubblewrap',
    release: network
      ? () => {
          release();
          network.release();
        }
      : release,
    launch: overlayLaunch(plan, launch),
    ...(network ? { refusedHosts: () => network.proxy.refusedHosts() } : {}),
  };
}

/** Registers the plan's placeholders, or `sandbox_unavailable` when they cannot be tracked. */
function holdPlaceholdersOrRefuse(plan: SandboxPlan): () => void {
  try {
    const contents = new Map(
      plan.mounts.flatMap((mount) =>
        mount.placeholderContent === undefined ? [] : [[mount.target, mount.placeholderContent] as const],
      ),
    );
    return holdPlaceholders(plan.placeholders, plan.protectedPaths, contents);
  } catch (error) {
    throw new SandboxUnavailableError(
      `the mount points of absent protected paths cannot be tracked (${(error as Error).message}); without that, another command's end could remove this command's guard. Make the folder named there writable by you alone, then run the command again`,
    );
  }
}
