import { isAbsolute, join } from 'node:path';
import type { ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';

/** How an editor shows one tool call: its kind, a title, and the files it touches. */
export interface ToolCallView {
  readonly kind: ToolKind;
  readonly title: string;
  readonly locations: ToolCallLocation[];
}

const KINDS: Readonly<Record<string, ToolKind>> = {
  read_file: 'read',
  read_artifact: 'read',
  todo_list: 'read',
  skill_view: 'read',
  lsp_hover: 'read',
  lsp_definition: 'read',
  lsp_diagnostics: 'read',
  search_files: 'search',
  glob_files: 'search',
  search_tools: 'search',
  memory_search: 'search',
  lsp_references: 'search',
  lsp_symbols: 'search',
  edit_file: 'edit',
  write_file: 'edit',
  apply_patch: 'edit',
  delete_file: 'delete',
  rename_file: 'move',
  run_command: 'execute',
  start_command: 'execute',
  command_input: 'execute',
  command_output: 'execute',
  command_status: 'execute',
  cancel_command: 'execute',
  resize_command_pty: 'execute',
  todo_write: 'think',
  web_fetch: 'fetch',
};

/** The ACP kind of a tool: the file tools by what they do, commands `execute`, the rest `other`. */
export function toolKind(toolName: string): ToolKind {
  return KINDS[toolName] ?? 'other';
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** Absolute paths of the workspace-relative paths a call names (`path`, `from`, `to`). */
function locationsOf(workspaceRoot: string, input: Record<string, unknown>): ToolCallLocation[] {
  const paths = ['path', 'from', 'to'].map((key) => text(input[key])).filter((path) => path !== undefined);
  return paths.map((path) => ({ path: isAbsolute(path) ? path : join(workspaceRoot, path) }));
}

function short(value: string, limit = 120): string {
  const line = value.replace(/\s+/g, ' ').trim();
  return line.length > limit ? `${line.slice(0, limit - 1)}…` : line;
}

/** The title, kind and locations of a call as the model asked for it (`input` may be anything). */
export function toolCallView(workspaceRoot: string, toolName: string, input: unknown): ToolCallView {
  const fields = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const path = text(fields.path);
  const titles: Record<string, string | undefined> = {
    read_file: path && `Read ${path}`,
    edit_file: path && `Edit ${path}`,
    write_file: path && `Write ${path}`,
    delete_file: path && `Delete ${path}`,
    rename_file: text(fields.from) && text(fields.to) && `Move ${String(fields.from)} → ${String(fields.to)}`,
    run_command: text(fields.command) && `$ ${short(String(fields.command))}`,
    search_files: text(fields.query) && `Search for ${short(String(fields.query), 60)}${path ? ` in ${path}` : ''}`,
    glob_files: text(fields.pattern) && `Find files ${short(String(fields.pattern), 60)}`,
    todo_write: 'Update the plan',
  };
  return {
    kind: toolKind(toolName),
    title: titles[toolName] ?? toolName,
    locations: locationsOf(workspaceRoot, fields),
  };
}

/** Parses the arguments text a model wrote; anything that is not a JSON object is kept as text. */
export function parseArguments(argumentsText: string): unknown {
  try {
    return JSON.parse(argumentsText) as unknown;
  } catch {
    return argumentsText;
  }
}
