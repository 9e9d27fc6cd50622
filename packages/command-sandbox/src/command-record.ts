import type { ArtifactReference, ArtifactWriter, TraceContext } from '@clawsmith/tool-protocol';
import { timingSafeEqual } from 'node:crypto';
import type { CommandLog, CommandOutputSlice } from './command-log.js';
import { outcomeSignal } from './command-report.js';
import { COMMAND_SANDBOX_ERROR_CODES, CommandSandboxError } from './errors.js';
import type { ProcessOutcome, StartedProcess } from './process-runner.js';
import type { StartedPtyProcess } from './pty-process.js';
import type { SandboxKind } from './sandbox-availability.js';

/** What a background command is doing. */
export type CommandState = 'running' | 'exited' | 'cancelled' | 'timed_out';

/** The state of one background command, as tools report it. */
export interface CommandSnapshot {
  readonly id: string;
  readonly command: string;
  readonly cwd: string;
  readonly state: CommandState;
  readonly pty: boolean;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly startedAt: string;
  readonly endedAt?: string;
  readonly outputBytes: number;
  readonly sandbox: SandboxKind;
  readonly network: boolean;
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
  readonly sessionId: string;
  readonly workspaceRoot: string;
  readonly command: string;
  readonly cwd?: string;
  /** Run on a pseudo-terminal (input and resize then need the takeover token). */
  readonly pty?: boolean;
  readonly columns?: number;
  readonly rows?: number;
  readonly timeoutMs?: number;
  /** Where the appendable log goes, when wired. */
  readonly artifacts?: ArtifactWriter;
  /** The calling tool call's trace context: the command gets it as `TRACEPARENT` / `TRACESTATE`. */
  readonly traceContext?: TraceContext;
}

/** What the terminal support of this service offers. */
export interface TerminalCapabilities {
  readonly pty: boolean;
  readonly resize: boolean;
  readonly ansi: boolean;
  readonly takeover: boolean;
  readonly library: string;
}

/** Output read from an offset, with whether the command has ended and everything was read. */
export interface CommandOutputRead extends CommandOutputSlice {
  readonly ended: boolean;
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
