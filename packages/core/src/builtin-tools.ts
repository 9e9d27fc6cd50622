import { createRunCommandTool, type CommandSandboxOptions } from '@clawsmith/command-sandbox';
import type { AnyToolDefinition } from '@clawsmith/tool-protocol';
import { createWebFetchTool, type WebFetchOptions } from '@clawsmith/web-fetch';
import { createWorkspaceTools, type WorkspaceToolsOptions } from '@clawsmith/workspace-fs';

/** Options of {@link createBuiltinTools}. */
export interface BuiltinToolsOptions {
  /** Options of the seven file tools (limits, skipped folders, protected paths). */
  readonly workspace?: Omit<WorkspaceToolsOptions, 'workspaceRoot'>;
  /** Options of `run_command` (sandbox, network, environment, limits). */
  readonly command?: CommandSandboxOptions;
  /** Options of `web_fetch` (allowed private addresses, limits); `false` leaves the tool out. */
  readonly webFetch?: WebFetchOptions | false;
}

/**
 * The nine base tools: `read_file`, `search_files`, `glob_files`, `edit_file`, `write_file`,
 * `rename_file`, `delete_file`, `run_command` and `web_fetch`. They work in each call's workspace
 * (`context.workspaceRoot`), so one table serves every session.
 */
export function createBuiltinTools(options: BuiltinToolsOptions = {}): AnyToolDefinition[] {
  return [
    ...createWorkspaceTools({ ...(options.workspace ?? {}) }),
    createRunCommandTool(options.command ?? {}),
    ...(options.webFetch === false ? [] : [createWebFetchTool(options.webFetch ?? {})]),
  ];
}
