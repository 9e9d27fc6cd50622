import { randomBytes } from 'node:crypto';
import { spawnBackgroundCommand } from './background-command-spawn.js';
import { validateSandboxOptions, type CommandSandboxOptions } from '../command-launch.js';
import {
  snapshot,
  stateOf,
  tokensMatch,
  type CommandOutputRead,
  type CommandSnapshot,
  type StartCommandRequest,
  type TerminalCapabilities,
} from './command-record.js';
import { CommandRegistry } from './command-registry.js';
import { COMMAND_SANDBOX_ERROR_CODES, CommandSandboxError } from '../errors.js';
import { loadPty, type StartedPtyProcess } from '../process/pty-process.js';

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
  /** Starts a command in the background; a terminal command also gets the token that allows input and resize. Refuses past the live-command cap. */
  start(request: StartCommandRequest): Promise<CommandSnapshot & { readonly takeoverToken?: string }>;
  /** The session's commands, live and recently finished. */
  list(sessionId: string): CommandSnapshot[];
  /** One command's state; throws `command_not_found` for an id this session does not have. */
  status(sessionId: string, id: string): CommandSnapshot;
  /** Output from `offset` (at most `maxBytes`), with where to read next and what memory no longer holds. */
  output(sessionId: string, id: string, offset: number, maxBytes: number): CommandOutputRead;
  /** Writes to the command's input; a terminal command needs its takeover token. */
  input(sessionId: string, id: string, data: string, takeoverToken?: string): void;
  /** Resizes a terminal command's terminal; needs its takeover token. */
  resize(sessionId: string, id: string, columns: number, rows: number, takeoverToken?: string): void;
  /** Kills the command's process tree and resolves with its final state. */
  cancel(sessionId: string, id: string): Promise<CommandSnapshot>;
  /** What terminal support this machine offers (pseudo-terminals, resize, ANSI, takeover). */
  terminalCapabilities(): Promise<TerminalCapabilities>;
  /** Kills every command of the session; resolves with how many were running. */
  endSession(sessionId: string): Promise<number>;
  /** Kills every command and refuses new ones. */
  close(): Promise<void>;
}

/** Creates the background command service. Throws `environment_name_forbidden` for a bad allowlist. */
export function createCommandExecutionService(options: CommandExecutionServiceOptions = {}): CommandExecutionService {
  validateSandboxOptions(options);
  const registry = new CommandRegistry({
    maxLivePerSession: options.maxLiveCommandsPerSession ?? 16,
    keepFinishedPerSession: options.finishedCommandsPerSession ?? 64,
  });
  let counter = 0;
  // Sandboxed commands die with this process (die-with-parent); unsandboxed ones are detached,
  // so their process groups are killed here, synchronously, when the process exits.
  const killAllOnExit = () => {
    for (const record of registry.allLive()) {
      if (record.process.pid === undefined) continue;
      try {
        process.kill(-record.process.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  };
  process.once('exit', killAllOnExit);
  const recordOf = (sessionId: string, id: string) => registry.recordOf(sessionId, id);

  const service: CommandExecutionService = {
    async start(request) {
      const release = registry.reserve(request.sessionId);
      try {
        counter += 1;
        const id = `cmd-${counter}-${randomBytes(3).toString('hex')}`;
        const record = await spawnBackgroundCommand(options, request, id, () =>
          registry.forgetOldFinished(request.sessionId),
        );
        registry.add(record);
        return { ...snapshot(record), ...(record.token ? { takeoverToken: record.token } : {}) };
      } finally {
        release();
      }
    },

    list: (sessionId) => registry.list(sessionId).map(snapshot),

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
      const running = registry.live(sessionId);
      await Promise.all(running.map((record) => record.process.kill('cancel').then(() => record.finished)));
      registry.forgetSession(sessionId);
      return running.length;
    },

    async close() {
      registry.close();
      process.removeListener('exit', killAllOnExit);
      await Promise.all(registry.sessionIds().map((sessionId) => service.endSession(sessionId)));
    },
  };
  return service;
}
