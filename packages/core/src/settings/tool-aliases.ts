/** How a rule's specifier is read for the tools of an alias. */
export type SpecifierKind = 'command' | 'path' | 'domain';

/** One alias of the `Tool(specifier)` rule shape: the tools it names and how its specifier is read. */
export interface ToolAlias {
  /** The clawsmith tools the alias names (`Bash`: `run_command`, `start_command`, `command_input`). */
  readonly tools: readonly string[];
  /** How the rule's specifier is read for them: a command, a workspace path, or a domain. */
  readonly specifier: SpecifierKind;
}

/**
 * The familiar tool names of settings files, mapped onto clawsmith's tools. A data table: a new
 * tool (a web fetcher) is one entry. Our own tool names work in rules too (`read_file(src/**)`),
 * read with the specifier kind of the alias that lists them.
 */
export const TOOL_ALIASES: Readonly<Record<string, ToolAlias>> = Object.freeze({
  Bash: {
    tools: ['run_command', 'start_command', 'command_input'],
    specifier: 'command',
  },
  Read: { tools: ['read_file', 'search_files', 'glob_files'], specifier: 'path' },
  Edit: { tools: ['edit_file', 'write_file', 'apply_patch', 'rename_file', 'delete_file'], specifier: 'path' },
  Write: { tools: ['edit_file', 'write_file', 'apply_patch', 'rename_file', 'delete_file'], specifier: 'path' },
  WebFetch: { tools: ['web_fetch'], specifier: 'domain' },
});

/** The aliases that name `toolName` (`run_command` → `Bash`). */
export function aliasesOf(toolName: string): string[] {
  return Object.entries(TOOL_ALIASES)
    .filter(([, alias]) => alias.tools.includes(toolName))
    .map(([name]) => name);
}
