import { randomBytes } from 'node:crypto';
import { BoundedOutput } from './bounded-output.js';
import { prepareCommand, validateSandboxOptions, type CommandSandboxOptions } from './command-launch.js';
import { CommandLog } from './command-log.js';
import {
  notFound,
  snapshot,
  stateOf,
  tokensMatch,
  type CommandOutputRead,
  type CommandRecord,
  type CommandSnapshot,
  type StartCommandRequest,
  type TerminalCapabilities,
} from './command-record.js';
import { COMMAND_SANDBOX_ERROR_CODES, CommandSandboxError } from './errors.js';
import { startProcess, type StartedProcess } from './process-runner.js';
import { loadPty, startPtyProcess, type StartedPtyProcess } from './pty-process.js';

/** Options of {@link createCommandExecutionService}: the sandbox options plus background limits. */
export interface CommandExecutionServiceOptions extends CommandSandboxOptions {
  /** Live commands per session; default 16. */
  readonly maxLiveCommandsPerSession?: number;
  /** Output kept in memory per command for offset reads; default 1 MiB. */
  readonly retainOutputBytes?: number;
  /** Default timeout of a background command in ms; default 3,600,000 (1 h). */
  readonly backgroundTimeoutMs?: number;
  /** Largest background timeout in ms; default 86,400,000 (24 h). */
  readonly maxBackgroundTimeoutMs?: number;
  /** Finished commands remembered per session for status and output; default 64. */
  readonly finishedCommandsPerSession?: number;
}

/**
 * Runs commands that outlive one tool call, per session, through the same refusal, environment,
 * limits and sandbox as `run_command`. Pipes or pseudo-terminals; logs read by offset; a cap on
 * live commands per session; every command of a session dies when the session ends.
 */
export interface CommandExecutionService {
  start(request: StartCommandRequest): Promise<CommandSnapshot & { readonly takeoverToken?: string }>;
  list(sessionId: string): CommandSnapshot[];
  status(sessionId: string, id: string): CommandSnapshot;
  output(sessionId: string, id: string, offset: number, maxBytes: number): CommandOutputRead;
  input(sessionId: string, id: string, data: string, takeoverToken?: string): void;
  resize(sessionId: string, id: string, columns: number, rows: number, takeoverToken?: string): void;
  cancel(sessionId: string, id: string): Promise<CommandSnapshot>;
  terminalCapabilities(): Promise<TerminalCapabilities>;
  /** Kills every command of the session; resolves with how many were running. */
  endSession(sessionId: string): Promise<number>;
  /** Kills every command and refuses new ones. */
  close(): Promise<void>;
}

/** Creates the background command service. Throws `environment_name_forbidden` for a bad allowlist. */
export function createCommandExecutionService(options: CommandExecutionServiceOptions = {}): CommandExecutionService {
  validateSandboxOptions(options);
  const sessions = new Map<string, Map<string, CommandRecord>>();
  const maxLive = options.maxLiveCommandsPerSession ?? 16;
  const keepFinished = options.finishedCommandsPerSession ?? 64;
  let closed = false;
  let counter = 0;
  // Sandboxed commands die with this process (die-with-parent); unsandboxed ones are detached,
  // so their process groups are killed here, synchronously, when the process exits.
  const killAllOnExit = () => {
    for (const commands of sessions.values()) {
      for (const record of commands.values()) {
        if (!record.outcome && record.process.pid !== undefined) {
          try {
            process.kill(-record.process.pid, 'SIGKILL');
          } catch {
            // Already gone.
          }
        }
      }
    }
  };
  process.once('exit', killAllOnExit);

  const recordOf = (sessionId: string, id: string): CommandRecord => {
    const record = sessions.get(sessionId)?.get(id);
    if (!record) throw notFound(id);
    return record;
  };
  const live = (sessionId: string) =>
    [...(sessions.get(sessionId)?.values() ?? [])].filter((record) => !record.outcome);
  // Starts still preparing hold a place, so concurrent starts cannot pass the cap together.
  const starting = new Map<string, number>();
  const forgetOldFinished = (commands: Map<string, CommandRecord>) => {
    const finished = [...commands.values()].filter((record) => record.outcome);
    for (const record of finished.slice(0, Math.max(0, finished.length - keepFinished))) commands.delete(record.id);
  };

  const startReserved = async (
    request: StartCommandRequest,
  ): Promise<CommandSnapshot & { readonly takeoverToken?: string }> => {
    const pty = request.pty ? await loadPty() : undefined;
    if (request.pty && !pty) {
      throw new CommandSandboxError(
        COMMAND_SANDBOX_ERROR_CODES.notATerminal,
        'Pseudo-terminals are not available here (the PTY library did not load); start the command without pty.',
      );
    }
    const prepared = await prepareCommand(options, request.workspaceRoot, request.command, request.cwd, Boolean(pty));
    const artifact = request.artifacts ? await request.artifacts.openAppendable() : undefined;
    const log = new CommandLog(options.retainOutputBytes ?? 1024 * 1024, artifact);
    const timeoutMs = Math.min(
      request.timeoutMs ?? options.backgroundTimeoutMs ?? 3_600_000,
      options.maxBackgroundTimeoutMs ?? 86_400_000,
    );
    const onChunk = (chunk: Buffer) => log.append(chunk);
    let started: StartedProcess | StartedPtyProcess;
    try {
      started = pty
        ? startPtyProcess(pty, {
            launch: prepared.launch,
            columns: request.columns ?? 120,
            rows: request.rows ?? 32,
            timeoutMs,
            maxProcesses: prepared.plan.limits.processes,
            ...(options.cgroupRoot !== undefined ? { cgroupRoot: options.cgroupRoot } : {}),
            onChunk,
          })
        : startProcess({
            launch: prepared.launch,
            timeoutMs,
            stdin: '',
            keepStdinOpen: true,
            output: new BoundedOutput(0, 0),
            maxProcesses: prepared.plan.limits.processes,
            ...(options.cgroupRoot !== undefined ? { cgroupRoot: options.cgroupRoot } : {}),
            onChunk,
          });
    } catch (error) {
      prepared.release();
      await log.close();
      throw new CommandSandboxError(
        COMMAND_SANDBOX_ERROR_CODES.commandSpawnFailed,
        `The command could not be started: ${error instanceof Error ? error.message : String(error)}.`,
        { retryable: true, cause: error },
      );
    }
    counter += 1;
    const id = `cmd-${counter}-${randomBytes(3).toString('hex')}`;
    const token = pty ? randomBytes(24).toString('hex') : undefined;
    const record: CommandRecord = {
      id,
      sessionId: request.sessionId,
      command: request.command,
      cwd: prepared.plan.workingDirectory,
      pty: Boolean(pty),
      ...(token ? { token } : {}),
      process: started,
      log,
      sandbox: prepared.sandbox,
      network: prepared.plan.network,
      startedAt: new Date().toISOString(),
      finished: started.done.then(async (outcome) => {
        prepared.release();
        record.outcome = outcome;
        record.endedAt = new Date().toISOString();
        record.finalArtifact = await log.close();
        const commands = sessions.get(request.sessionId);
        if (commands) forgetOldFinished(commands);
      }),
    };
    const commands = sessions.get(request.sessionId) ?? new Map<string, CommandRecord>();
    sessions.set(request.sessionId, commands);
    commands.set(id, record);
    return { ...snapshot(record), ...(token ? { takeoverToken: token } : {}) };
  };

  const service: CommandExecutionService = {
    async start(request) {
      if (closed)
        throw new CommandSandboxError(
          COMMAND_SANDBOX_ERROR_CODES.serviceClosed,
          'The command service is closed; no new commands can start.',
        );
      if (live(request.sessionId).length + (starting.get(request.sessionId) ?? 0) >= maxLive) {
        throw new CommandSandboxError(
          COMMAND_SANDBOX_ERROR_CODES.commandLimitReached,
          `This session already has ${maxLive} running background commands, the most it may have. Cancel one with cancel_command (list_commands shows them) or wait for one to end.`,
          { retryable: true },
        );
      }
      starting.set(request.sessionId, (starting.get(request.sessionId) ?? 0) + 1);
      try {
        return await startReserved(request);
      } finally {
        starting.set(request.sessionId, (starting.get(request.sessionId) ?? 1) - 1);
      }
    },

    list: (sessionId) => [...(sessions.get(sessionId)?.values() ?? [])].map(snapshot),

    status: (sessionId, id) => snapshot(recordOf(sessionId, id)),

    output(sessionId, id, offset, maxBytes) {
      const record = recordOf(sessionId, id);
      const slice = record.log.read(offset, maxBytes);
      return {
        ...slice,
        state: stateOf(record),
        ended: record.outcome !== undefined && slice.nextOffset >= record.log.totalBytes,
      };
    },

    input(sessionId, id, data, takeoverToken) {
      const record = recordOf(sessionId, id);
      if (record.outcome)
        throw new CommandSandboxError(
          COMMAND_SANDBOX_ERROR_CODES.commandNotRunning,
          `The command ${id} has ended; its input is closed.`,
        );
      if (record.pty && !tokensMatch(record.token, takeoverToken)) {
        throw new CommandSandboxError(
          COMMAND_SANDBOX_ERROR_CODES.takeoverRequired,
          `Writing to the terminal of ${id} needs the takeover token that start_command returned.`,
        );
      }
      record.process.write(data);
    },

    resize(sessionId, id, columns, rows, takeoverToken) {
      const record = recordOf(sessionId, id);
      if (!record.pty)
        throw new CommandSandboxError(
          COMMAND_SANDBOX_ERROR_CODES.notATerminal,
          `The command ${id} runs on pipes, not a terminal; only terminal commands can be resized.`,
        );
      if (!tokensMatch(record.token, takeoverToken)) {
        throw new CommandSandboxError(
          COMMAND_SANDBOX_ERROR_CODES.takeoverRequired,
          `Resizing the terminal of ${id} needs the takeover token that start_command returned.`,
        );
      }
      if (record.outcome)
        throw new CommandSandboxError(COMMAND_SANDBOX_ERROR_CODES.commandNotRunning, `The command ${id} has ended.`);
      (record.process as StartedPtyProcess).resize(columns, rows);
    },

    async cancel(sessionId, id) {
      const record = recordOf(sessionId, id);
      if (!record.outcome) await record.process.kill('cancel');
      await record.finished;
      return snapshot(record);
    },

    async terminalCapabilities() {
      const pty = Boolean(await loadPty());
      return { pty, resize: pty, ansi: pty, takeover: pty, library: pty ? '@lydell/node-pty' : 'none (pipes only)' };
    },

    async endSession(sessionId) {
      const running = live(sessionId);
      await Promise.all(running.map((record) => record.process.kill('cancel').then(() => record.finished)));
      sessions.delete(sessionId);
      return running.length;
    },

    async close() {
      closed = true;
      process.removeListener('exit', killAllOnExit);
      await Promise.all([...sessions.keys()].map((sessionId) => service.endSession(sessionId)));
    },
  };
  return service;
}
