import { randomBytes } from 'node:crypto';
import { BoundedOutput } from '../process/bounded-output.js';
import type { CommandExecutionServiceOptions } from './command-execution-service.js';
import { prepareCommand } from '../command-launch.js';
import { CommandLog } from './command-log.js';
import type { CommandRecord, StartCommandRequest } from './command-record.js';
import { COMMAND_SANDBOX_ERROR_CODES, CommandSandboxError } from '../errors.js';
import { startProcess, type StartedProcess } from '../process/process-runner.js';
import { loadPty, startPtyProcess, type StartedPtyProcess } from '../process/pty-process.js';

/**
 * Starts one background command through the same preparation as `run_command` (refusal,
 * environment, limits, sandbox), on a pseudo-terminal or pipes, its output into a log (and the
 * request's artifact). `onFinished` runs once the command ended and its log is closed. Throws
 * `not_a_terminal`, the preparation's errors, or `command_spawn_failed`.
 */
export async function spawnBackgroundCommand(
  options: CommandExecutionServiceOptions,
  request: StartCommandRequest,
  id: string,
  onFinished: () => void,
): Promise<CommandRecord> {
  const pty = request.pty ? await loadPty() : undefined;
  if (request.pty && !pty) {
    throw new CommandSandboxError(
      COMMAND_SANDBOX_ERROR_CODES.notATerminal,
      'Pseudo-terminals are not available here (the PTY library did not load); start the command without pty.',
    );
  }
  const prepared = await prepareCommand(
    options,
    request.workspaceRoot,
    request.command,
    request.cwd,
    Boolean(pty),
    undefined,
    request.traceContext,
  );
  const artifact = request.artifacts ? await request.artifacts.openAppendable() : undefined;
  const log = new CommandLog(options.retainOutputBytes ?? 1024 * 1024, artifact);
  const timeoutMs = Math.min(
    request.timeoutMs ?? options.backgroundTimeoutMs ?? 3_600_000,
    options.maxBackgroundTimeoutMs ?? 86_400_000,
  );
  const onChunk = (chunk: Buffer) => log.append(chunk);
  const cgroup = options.cgroupRoot !== undefined ? { cgroupRoot: options.cgroupRoot } : {};
  let started: StartedProcess | StartedPtyProcess;
  try {
    started = pty
      ? startPtyProcess(pty, {
          launch: prepared.launch,
          columns: request.columns ?? 120,
          rows: request.rows ?? 32,
          timeoutMs,
          maxProcesses: prepared.plan.limits.processes,
          ...cgroup,
          onChunk,
        })
      : startProcess({
          launch: prepared.launch,
          timeoutMs,
          stdin: '',
          keepStdinOpen: true,
          output: new BoundedOutput(0, 0),
          maxProcesses: prepared.plan.limits.processes,
          maxMemoryBytes: prepared.plan.limits.commandMemoryBytes,
          ...cgroup,
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
      onFinished();
    }),
  };
  return record;
}
