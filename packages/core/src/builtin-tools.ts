import { createRunCommandTool, type CommandSandboxOptions } from '@clawsmith/command-sandbox';
import type { AnyToolDefinition } from '@clawsmith/tool-protocol';
import { createWorkspaceTools, type WorkspaceToolsOptions } from '@clawsmith/workspace-fs';

/** Options of {@link createBuiltinTools}. */
export interface BuiltinToolsOptions {
  /** Options of the seven file tools (limits, skipped folders, protected paths). */
  readonly workspace?: Omit<WorkspaceToolsOptions, 'workspaceRoot'>;
  /** Options of `run_command` (sandbox, network, environment, limits). */
  readonly command?: CommandSandboxOptions;
}

/**
 * The eight base tools: `read_file`, `search_files`, `glob_files`, `edit_file`, `write_file`,
 * `rename_file`, `delete_file` and `run_command`. They work in each call's workspace
 * (`context.workspaceRoot`), so one table serves every session.
 */
export function createBuiltinTools(options: BuiltinToolsOptions = {}): AnyToolDefinition[] {
  return [...createWorkspaceTools({ ...(options.workspace ?? {}) }), createRunCommandTool(options.command ?? {})];
}
