import { realpathSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { COMMAND_SANDBOX_ERROR_CODES, CommandSandboxError } from './errors.js';

/**
 * The real path of the workspace root a command runs in. A root that is relative, missing or not
 * a folder is refused with `workspace_unavailable` before anything runs, instead of surfacing a
 * raw `ENOENT` from deep inside the sandbox setup.
 */
export function realWorkspaceRoot(workspaceRoot: string): string {
  const refuse = (why: string, cause?: unknown) =>
    new CommandSandboxError(
      COMMAND_SANDBOX_ERROR_CODES.workspaceUnavailable,
      `The workspace root ${JSON.stringify(workspaceRoot)} ${why}; pass the absolute path of an existing folder as workspaceRoot (create it first if it is new).`,
      cause === undefined ? {} : { cause },
    );
  if (!isAbsolute(workspaceRoot)) throw refuse('is not an absolute path');
  let real: string;
  try {
    real = realpathSync(workspaceRoot);
  } catch (error) {
    throw refuse('does not exist', error);
  }
  if (!statSync(real).isDirectory()) throw refuse('is not a folder');
  return real;
}
