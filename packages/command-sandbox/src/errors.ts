import { ClawsmithError } from '@clawsmith/tool-protocol';
import type { CommandSafetyRule } from './refusal/command-rules.js';

/** Every error code this package produces, for callers that branch on them. */
export const COMMAND_SANDBOX_ERROR_CODES = Object.freeze({
  commandRefused: 'command_refused',
  sandboxUnavailable: 'sandbox_unavailable',
  workingDirectoryOutsideWorkspace: 'working_directory_outside_workspace',
  workingDirectoryNotFound: 'working_directory_not_found',
  workspaceUnavailable: 'workspace_unavailable',
  environmentNameForbidden: 'environment_name_forbidden',
  commandSpawnFailed: 'command_spawn_failed',
  commandLimitReached: 'command_limit_reached',
  commandNotFound: 'command_not_found',
  commandNotRunning: 'command_not_running',
  takeoverRequired: 'takeover_required',
  notATerminal: 'not_a_terminal',
  serviceClosed: 'service_closed',
  protectedPathSymlink: 'protected_path_symlink',
  /** A command ran and exited non-zero: a result code (with `exitCode`), not a thrown error. */
  commandFailed: 'command_failed',
  /** A command was killed by its timeout: a result code, not a thrown error. */
  commandTimeout: 'command_timeout',
  /** A command exited non-zero after reaching a resource limit (memory, /tmp space, processes, file size, CPU time): a result code; the notes name the limit and how to raise it. */
  resourceLimitReached: 'resource_limit_reached',
} as const);

/**
 * A catastrophic command was refused before anything ran (code `command_refused`). `rule` names
 * the rule; no approval unlocks it.
 */
export class CommandRefusedError extends ClawsmithError {
  /** The rule that refused the command. */
  readonly rule: CommandSafetyRule;

  constructor(rule: CommandSafetyRule, reason: string) {
    super(
      COMMAND_SANDBOX_ERROR_CODES.commandRefused,
      `Refused by rule ${rule}: ${reason}. No approval unlocks this rule; run a narrower command (for example a path inside the workspace).`,
    );
    this.name = 'CommandRefusedError';
    this.rule = rule;
  }
}

/** No OS sandbox could be had and the configuration does not say `sandbox: 'off'` (code `sandbox_unavailable`). */
export class SandboxUnavailableError extends ClawsmithError {
  constructor(detail: string) {
    super(
      COMMAND_SANDBOX_ERROR_CODES.sandboxUnavailable,
      `No command sandbox is available: ${detail}. Install bubblewrap (apt-get install bubblewrap), or set sandbox: 'off' explicitly to run commands unsandboxed.`,
    );
    this.name = 'SandboxUnavailableError';
  }
}

/** A failure of this package with a stable code and a message that says what to do next. */
export class CommandSandboxError extends ClawsmithError {
  constructor(code: string, message: string, options: { retryable?: boolean; cause?: unknown } = {}) {
    super(code, message, options);
    this.name = 'CommandSandboxError';
  }
}
