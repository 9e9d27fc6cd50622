import { toolCancelled, toolError, toolSuccess, type ToolExecutionResult } from '@clawsmith/tool-protocol';
import type { CommandSnapshot } from './command-record.js';
import { describeStatus } from '../command-report.js';
import { COMMAND_SANDBOX_ERROR_CODES } from '../errors.js';

/** The text the background command tools give for one command: state, sandbox, limits, log. */
export function describeSnapshot(command: CommandSnapshot): string {
  const ended =
    command.state === 'running' ? 'running' : `${command.state}, ${describeStatus(command.exitCode, command.signal)}`;
  const sandbox =
    command.sandbox === 'none' ? 'NONE (unsandboxed)' : `${command.sandbox}, network ${command.network ? 'on' : 'off'}`;
  const lines = [
    `${command.id}: ${ended} · ${command.pty ? 'terminal' : 'pipes'} · ${command.outputBytes} bytes of output · sandbox: ${sandbox}`,
    `$ ${command.command}`,
  ];
  if (command.processLimitHits > 0) lines.push(`The process limit refused ${command.processLimitHits} forks.`);
  if (command.contained === false)
    lines.push(
      'The process tree was not held in a pids cgroup (it needs root or a delegated cgroupRoot): the process cap did not apply.',
    );
  if (command.artifact && command.logIncomplete)
    lines.push(
      `Log artifact: ${command.artifact.id} is INCOMPLETE (${command.logIncomplete}). It keeps ${command.artifact.byteLength} bytes; read_command_output serves the first 64 KiB and the last 1 MiB from memory.`,
    );
  else if (command.artifact)
    lines.push(
      `Log artifact: ${command.artifact.id} (${command.artifact.byteLength} bytes${command.artifact.sha256 ? ', complete' : ', growing'}).`,
    );
  else
    lines.push('No artifact store is wired in: memory keeps only the first 64 KiB and the last 1 MiB of the output.');
  return lines.join('\n');
}

/** A started command's report, with its log artifact. */
export function startedResult(content: string, command?: CommandSnapshot) {
  return toolSuccess(content, command?.artifact ? { artifact: command.artifact } : undefined);
}

/**
 * The report of a command's state, with its outcome in the result protocol as `run_command`
 * reports it: running or exit 0 is `success`; a non-zero exit `command_failed` (with
 * `exitCode`); a timeout `command_timeout`; a cancel `cancelled`.
 */
export function outcomeResult(content: string, command: CommandSnapshot): ToolExecutionResult {
  const extras = {
    ...(command.artifact ? { artifact: command.artifact } : {}),
    ...(command.state !== 'running' && command.exitCode !== null ? { exitCode: command.exitCode } : {}),
  };
  if (command.state === 'cancelled') return toolCancelled(content, extras);
  if (command.state === 'timed_out') return toolError(COMMAND_SANDBOX_ERROR_CODES.commandTimeout, content, extras);
  if (command.state === 'exited' && command.exitCode !== 0)
    return toolError(COMMAND_SANDBOX_ERROR_CODES.commandFailed, content, extras);
  return toolSuccess(content, extras);
}
