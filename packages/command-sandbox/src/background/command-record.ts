import type { ArtifactReference, ArtifactWriter, TraceContext } from '@clawsmith/tool-protocol';
import { timingSafeEqual } from 'node:crypto';
import type { CommandLog, CommandOutputSlice } from './command-log.js';
import { outcomeSignal } from '../command-report.js';
import { COMMAND_SANDBOX_ERROR_CODES, CommandSandboxError } from '../errors.js';
import type { ProcessOutcome, StartedProcess } from '../process/process-runner.js';
import type { StartedPtyProcess } from '../process/pty-process.js';
import type { SandboxKind } from '../sandbox/sandbox-availability.js';

/** What a background command is doing. */
export type CommandState = 'running' | 'exited' | 'cancelled' | 'timed_out';

/** The state of one background command, as tools report it. */
export interface CommandSnapshot {
  /** The id tools name the command by, unique in its session. */
  readonly id: string;
  /** The shell text. */
  readonly command: string;
  /** Workspace-relative folder it started in. */
  readonly cwd: string;
  /** Running, or how it ended. */
  readonly state: CommandState;
  /** Whether it runs on a pseudo-terminal. */
  readonly pty: boolean;
  /** Exit code once ended, else `null` (also when a signal ended it). */
  readonly exitCode: number | null;
  /** The signal that ended it, or `null`. */
  readonly signal: string | null;
  /** When it started (ISO 8601). */
  readonly startedAt: string;
  /** When it ended (ISO 8601), once it has. */
  readonly endedAt?: string;
  /** Bytes of output so far. */
  readonly outputBytes: number;
  /** Which sandbox holds it. */
  readonly sandbox: SandboxKind;
  /** Whether it has the network. */
  readonly network: boolean;
  /** Forks the process limit refused so far. */
  readonly processLimitHits: number;
  /** Once ended: whether a pids cgroup held the whole process tree (the process cap applied). */
  readonly contained?: boolean;
  /** The complete log; final (with `sha256`) once the command ended. */
  readonly artifact?: ArtifactReference;
  /**
   * Set when the log artifact is incomplete because storing it failed, with the reason; `artifact`
   * then holds only what was stored before, and only the in-memory window has the rest.
   */
  readonly logIncomplete?: string;
}

/** A request to start a background command. */
export interface StartCommandRequest {
  /** The session that owns the command: it dies when the session ends. */
  readonly sessionId: string;
  /** Absolute path of the workspace: the only folder the command may write. */
  readonly workspaceRoot: string;
  /** The shell text. */
  readonly command: string;
  /** Workspace-relative working folder; default the workspace root. */
  readonly cwd?: string;
  /** Run on a pseudo-terminal (input and resize then need the takeover token). */
  readonly pty?: boolean;
  /** Terminal width in columns (pseudo-terminals only). */
  readonly columns?: number;
  /** Terminal height in rows (pseudo-terminals only). */
  readonly rows?: number;
  /** Time limit in ms (default the service's `backgroundTimeoutMs`, at most its maximum). */
  readonly timeoutMs?: number;
  /** Where the appendable log goes, when wired. */
  readonly artifacts?: ArtifactWriter;
  /** The calling tool call's trace context: the command gets it as `TRACEPARENT` / `TRACESTATE`. */
  readonly traceContext?: TraceContext;
}

/** What the terminal support of this service offers. */
export interface TerminalCapabilities {
  /** Whether commands can run on a pseudo-terminal here (the PTY library loaded). */
  readonly pty: boolean;
  /** Whether a terminal command can be resized. */
  readonly resize: boolean;
  /** Whether output keeps ANSI escape sequences (terminal commands). */
  readonly ansi: boolean;
  /** Whether input and resize are guarded by a takeover token. */
  readonly takeover: boolean;
  /** The PTY library in use, or why there is none. */
  readonly library: string;
}

/** Output read from an offset, with whether the command has ended and everything was read. */
export interface CommandOutputRead extends CommandOutputSlice {
  /** Whether the command has ended and this read reached the end of its output. */
  readonly ended: boolean;
  /** The command's state at the time of the read. */
  readonly state: CommandState;
}

/** One background command as the service holds it. */
export interface CommandRecord {
  readonly id: string;
  readonly sessionId: string;
  readonly command: string;
  readonly cwd: string;
  readonly pty: boolean;
  readonly token?: string;
  readonly process: StartedProcess | StartedPtyProcess;
  readonly log: CommandLog;
  readonly sandbox: SandboxKind;
  readonly network: boolean;
  readonly startedAt: string;
  outcome?: ProcessOutcome;
  endedAt?: string;
  finalArtifact?: ArtifactReference;
  readonly finished: Promise<void>;
}

/** The error for an id this session does not have. */
export function notFound(id: string): CommandSandboxError {
  return new CommandSandboxError(
    COMMAND_SANDBOX_ERROR_CODES.commandNotFound,
    `No background command ${JSON.stringify(id)} in this session; list_commands shows the ids.`,
  );
}

/** Compares takeover tokens in constant time. */
export function tokensMatch(expected: string | undefined, given: string | undefined): boolean {
  if (!expected || !given) return false;
  const left = Buffer.from(expected);
  const right = Buffer.from(given);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The state of a record. */
export function stateOf(record: CommandRecord): CommandState {
  if (!record.outcome) return 'running';
  if (record.outcome.timedOut) return 'timed_out';
  if (record.outcome.cancelled) return 'cancelled';
  return 'exited';
}

/** The snapshot tools report for a record. */
export function snapshot(record: CommandRecord): CommandSnapshot {
  const artifact = record.finalArtifact ?? record.log.artifact?.reference();
  return {
    id: record.id,
    command: record.command,
    cwd: record.cwd,
    state: stateOf(record),
    pty: record.pty,
    exitCode: record.outcome?.exitCode ?? null,
    signal: record.outcome ? outcomeSignal(record.outcome) : null,
    startedAt: record.startedAt,
    ...(record.endedAt ? { endedAt: record.endedAt } : {}),
    outputBytes: record.log.totalBytes,
    sandbox: record.sandbox,
    network: record.network,
    processLimitHits: record.outcome?.processLimitHits ?? 0,
    ...(record.outcome ? { contained: record.outcome.contained } : {}),
    ...(artifact ? { artifact } : {}),
    ...(record.log.artifactFailure ? { logIncomplete: record.log.artifactFailure } : {}),
  };
}
