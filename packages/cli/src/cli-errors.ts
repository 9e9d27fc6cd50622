import { ClawsmithError } from '@clawsmith/tool-protocol';
import { EXIT_CODES } from './exit-codes.js';
import { terminalStyle } from './terminal/terminal-style.js';
import { terminalSafe } from './terminal/terminal-text.js';

/** Codes of the errors the command itself raises (others come from core, checkpoints, providers). */
export const CLI_ERROR_CODES = [
  'provider_required',
  'model_required',
  'prompt_required',
  'workspace_not_found',
  'session_not_found',
  'turn_not_found',
  'workspace_mismatch',
  'invalid_port',
  'web_listen_failed',
  'system_prompt_unreadable',
  'invalid_token',
  'invalid_subagent_option',
  'traceparent_invalid',
  'telemetry_config_invalid',
  'invalid_network_option',
  'invalid_token_option',
  'invalid_option',
] as const;

/** One of {@link CLI_ERROR_CODES}. */
export type CliErrorCode = (typeof CLI_ERROR_CODES)[number];

/** A command-line failure with a stable code and a message that says what to do next. */
export class CliError extends ClawsmithError {
  /** The process exit code this error ends with. */
  readonly exitCode: number;

  constructor(code: CliErrorCode, message: string, exitCode: number = EXIT_CODES.failed) {
    super(code, message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/**
 * The message a person at the command line reads: the checkpoint library's own messages name
 * its functions (`listRestorePoints`) as the next step, which means nothing here.
 */
function commandLineMessage(error: unknown, message: string): string {
  if (!ClawsmithError.isInstance(error) || error.code !== 'checkpoint_already_undone') return message;
  const session = / of session (\S+) /.exec(message)?.[1];
  const happened = message.split(';')[0] ?? message;
  return `${happened}; \`clawsmith checkpoints${session ? ` --session ${session}` : ''}\` lists which turns are undone (their conversation can still be undone with \`clawsmith undo session\`).`;
}

function conflictPaths(error: unknown): string[] | undefined {
  // Read by shape, not through core's `undoConflictsOf`: this file loads on every start, core only when needed.
  if (!ClawsmithError.isInstance(error) || error.code !== 'checkpoint_conflict') return undefined;
  const conflicts = (error as { conflicts?: readonly { path: string }[] }).conflicts ?? [];
  return conflicts.map((conflict) => conflict.path);
}

/**
 * Prints `error` on stderr as `clawsmith: <message> [code]` (sanitised: messages can quote
 * tool or file text), lists conflicting paths for a refused undo, and returns the exit code.
 * Never prints a stack trace.
 */
export function reportError(error: unknown, stream: NodeJS.WriteStream = process.stderr): number {
  const style = terminalStyle(stream);
  const message = commandLineMessage(error, error instanceof Error ? error.message : String(error));
  const code = ClawsmithError.isInstance(error) ? error.code : undefined;
  stream.write(`${style.red('clawsmith:')} ${terminalSafe(message)}${code ? style.dim(` [${code}]`) : ''}\n`);
  const paths = conflictPaths(error);
  if (paths) {
    stream.write('Conflicting paths (changed since the agent wrote them):\n');
    for (const path of paths) stream.write(`  ${terminalSafe(path)}\n`);
    return EXIT_CODES.conflict;
  }
  if (error instanceof CliError) return error.exitCode;
  return EXIT_CODES.failed;
}
