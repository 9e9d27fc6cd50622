import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError } from '../cli-errors.js';
import { EXIT_CODES } from '../exit-codes.js';
import { PROJECT_INSTRUCTIONS_LIMIT, readProjectInstructions } from './project-instructions.js';

/** What the default system prompt is built from. */
export interface SystemPromptContext {
  readonly workspaceRoot: string;
  /** The names of the tools the model can call now or find with `search_tools`. */
  readonly toolNames: readonly string[];
  readonly platform?: string;
  readonly date?: Date;
  /** Sections that extensions add (the skill list), placed after the project instructions. */
  readonly extensionInstructions?: string;
}

/** `--system-prompt` and `--append-system-prompt` as given. */
export interface SystemPromptOptions {
  readonly systemPrompt?: string;
  readonly appendSystemPrompt?: string;
}

const TOOL_GUIDE: readonly (readonly [string, string])[] = [
  ['read_file', 'read_file, search_files and glob_files find and read files; read a file before you change it.'],
  [
    'edit_file',
    'edit_file replaces text that occurs exactly once (copy oldText from what you read); write_file creates or overwrites a whole file; rename_file and delete_file do what they say.',
  ],
  [
    'run_command',
    'run_command runs a bash command in a sandbox (no network unless configured) and returns its output and exit code; a non-zero exit comes back as an error (command_failed) with the output. Run the tests after a change, and again after a fix.',
  ],
  ['search_tools', 'search_tools finds and activates more tools, for example start_command for a server or a watcher.'],
  ['read_artifact', 'Output too large to show inline is stored as an artifact; read_artifact reads parts of it.'],
  ['todo_write', 'todo_write keeps a short plan for work of several steps.'],
];

/** The default instructions: what clawsmith is, where it works, and what the tools are for. Concise on purpose. */
export function defaultSystemPrompt(context: SystemPromptContext): string {
  const date = (context.date ?? new Date()).toISOString().slice(0, 10);
  const tools = new Set(context.toolNames);
  return [
    'You are clawsmith, an agent that works in one folder on the user’s machine through the tools you are given. Every tool call is checked, may need the user’s approval, runs sandboxed and is recorded.',
    '',
    `Workspace root: ${context.workspaceRoot} (tool paths are relative to it)`,
    `Platform: ${context.platform ?? `${process.platform} ${process.arch}`}; date: ${date}`,
    '',
    ...TOOL_GUIDE.filter(([name]) => tools.has(name)).map(([, line]) => `- ${line}`),
    '- Every turn’s file changes can be undone by the user (clawsmith undo), but change only what the task needs.',
    '- A denied call was refused by the user or a rule: do not retry it unchanged.',
    '- When you are done, say briefly what you changed and how you checked it.',
  ].join('\n');
}

function fromTextOrFile(value: string, option: string): string {
  if (!value.startsWith('@')) return value;
  const path = resolve(value.slice(1));
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(
      'system_prompt_unreadable',
      `${option} ${value}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Pass the text itself, or @ and a readable file.`,
      EXIT_CODES.usage,
    );
  }
}

/**
 * The system prompt of a turn: `--system-prompt` (text, or `@file`) or the default, then the
 * workspace's `AGENTS.md` and `CLAWSMITH.md` (each at most 32 KiB, with a note when cut), then the
 * extensions' sections (the skill list), then `--append-system-prompt`.
 */
export function buildSystemPrompt(context: SystemPromptContext, options: SystemPromptOptions = {}): string {
  const parts = [
    options.systemPrompt !== undefined
      ? fromTextOrFile(options.systemPrompt, '--system-prompt')
      : defaultSystemPrompt(context),
  ];
  for (const instructions of readProjectInstructions(context.workspaceRoot)) {
    parts.push(
      `Project instructions from ${instructions.file}:\n\n${instructions.text}${
        instructions.cut
          ? `\n\n[${instructions.file} is longer than ${PROJECT_INSTRUCTIONS_LIMIT / 1024} KiB; the rest was cut. Read it with read_file if you need it.]`
          : ''
      }`,
    );
  }
  if (context.extensionInstructions) parts.push(context.extensionInstructions);
  if (options.appendSystemPrompt !== undefined)
    parts.push(fromTextOrFile(options.appendSystemPrompt, '--append-system-prompt'));
  return parts.join('\n\n');
}
