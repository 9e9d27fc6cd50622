import {
  assertAuthorized,
  defineTool,
  stripControlSequences,
  toolSuccess,
  type AnyToolDefinition,
} from '@clawsmith/tool-protocol';
import { z } from 'zod';
import type { CommandExecutionService } from './command-execution-service.js';
import { describeSnapshot, outcomeResult, startedResult } from './background-command-report.js';

const commandId = z.string().min(1).max(100).describe('The id start_command returned.');
const token = z
  .string()
  .max(200)
  .optional()
  .describe('The takeover token start_command returned for a terminal command.');

/** What every background command tool shares: whether it is deferred, and its search tags. */
interface CommonToolFields {
  readonly deferred: boolean;
  readonly searchMetadata: { readonly tags: string[] };
}

/** One row of the table: builds one tool over the service. */
type BackgroundCommandTool = (service: CommandExecutionService, common: CommonToolFields) => AnyToolDefinition;

const startCommandTool: BackgroundCommandTool = (service, common) =>
  defineTool({
    name: 'start_command',
    description:
      'Start a long-running shell command (a dev server, a watcher, an interactive program) in the sandbox and return its id at once. It keeps running across turns until it ends, is cancelled or the session ends. With pty: true it runs on a terminal; the returned takeover token is needed for command_input and resize_command_pty.',
    risk: 'execute',
    capabilities: ['process.execute', 'filesystem.write', 'filesystem.read'],
    concurrencySafe: false,
    ...common,
    searchMetadata: {
      ...common.searchMetadata,
      aliases: ['server', 'dev server', 'watch', 'long-running', 'daemon', 'pty'],
    },
    inputSchema: z.object({
      command: z.string().min(1).max(100_000),
      cwd: z.string().max(4_096).optional().describe('Working folder relative to the workspace root.'),
      pty: z.boolean().optional().describe('Run on a pseudo-terminal; default false (pipes).'),
      columns: z.number().int().min(10).max(1_000).optional(),
      rows: z.number().int().min(5).max(500).optional(),
      timeoutSeconds: z.number().int().min(1).max(86_400).optional().describe('Default 3600.'),
    }),
    summarize: (input) => `start_command: ${input.command.slice(0, 160)}`,
    async execute(input, context) {
      assertAuthorized(context, 'start_command');
      const started = await service.start({
        sessionId: context.sessionId,
        workspaceRoot: context.workspaceRoot,
        command: input.command,
        cwd: input.cwd,
        pty: input.pty,
        columns: input.columns,
        rows: input.rows,
        timeoutMs: input.timeoutSeconds === undefined ? undefined : input.timeoutSeconds * 1000,
        artifacts: context.artifacts,
        traceContext: context.traceContext,
      });
      const unrecorded = `Changes made by the background command ${started.id} are not recorded in the checkpoint (background commands and terminals write live, outside overlay capture).`;
      await context.fileChanges?.note?.(unrecorded);
      const lines = [describeSnapshot(started), unrecorded];
      if (started.takeoverToken)
        lines.push(`Takeover token (needed for command_input and resize_command_pty): ${started.takeoverToken}`);
      lines.push(`Read its output with command_output { "id": "${started.id}", "offset": 0 }.`);
      return startedResult(lines.join('\n'), started);
    },
  });

const listCommandsTool: BackgroundCommandTool = (service, common) =>
  defineTool({
    name: 'list_commands',
    description: "List this session's background commands with their state.",
    risk: 'read',
    capabilities: ['session.read'],
    concurrencySafe: true,
    ...common,
    inputSchema: z.object({}),
    summarize: () => 'list_commands',
    async execute(_input, context) {
      const commands = service.list(context.sessionId);
      return toolSuccess(
        commands.length === 0 ? 'No background commands in this session.' : commands.map(describeSnapshot).join('\n\n'),
      );
    },
  });

const terminalCapabilitiesTool: BackgroundCommandTool = (service, common) =>
  defineTool({
    name: 'command_terminal_capabilities',
    description:
      'Say whether background commands can run on a pseudo-terminal, be resized, emit ANSI, and be taken over with a token.',
    risk: 'read',
    capabilities: ['session.read'],
    concurrencySafe: true,
    ...common,
    inputSchema: z.object({}),
    summarize: () => 'command_terminal_capabilities',
    async execute() {
      const capabilities = await service.terminalCapabilities();
      return toolSuccess(JSON.stringify(capabilities));
    },
  });

const commandStatusTool: BackgroundCommandTool = (service, common) =>
  defineTool({
    name: 'command_status',
    description: 'State, exit code and log artifact of one background command.',
    risk: 'read',
    capabilities: ['session.read'],
    concurrencySafe: true,
    ...common,
    inputSchema: z.object({ id: commandId }),
    summarize: (input) => `command_status: ${input.id}`,
    async execute(input, context) {
      const command = service.status(context.sessionId, input.id);
      return outcomeResult(describeSnapshot(command), command);
    },
  });

const commandOutputTool: BackgroundCommandTool = (service, common) =>
  defineTool({
    name: 'command_output',
    description:
      'Read a background command output from a byte offset (0 to start). Returns the next offset and whether the command ended and everything was read. Terminal control sequences are removed from the text.',
    risk: 'read',
    capabilities: ['session.read'],
    concurrencySafe: true,
    ...common,
    inputSchema: z.object({
      id: commandId,
      offset: z.number().int().min(0).optional().describe('Byte offset; default 0.'),
      maxBytes: z.number().int().min(1).max(65_536).optional().describe('Default 16384.'),
    }),
    summarize: (input) => `command_output: ${input.id} from ${input.offset ?? 0}`,
    async execute(input, context) {
      const read = service.output(context.sessionId, input.id, input.offset ?? 0, input.maxBytes ?? 16_384);
      const head = [
        `bytes ${read.offset}-${read.nextOffset} · nextOffset ${read.nextOffset} · ${read.ended ? 'ended: everything was read' : `state ${read.state}`}`,
      ];
      if (read.droppedBytes > 0)
        head.push(
          `${read.droppedBytes} older bytes are no longer in memory; the log artifact (command_status) has them.`,
        );
      return toolSuccess(
        `${head.join('\n')}\n${stripControlSequences(read.bytes.toString('utf8')).replace(/\r\n/g, '\n')}`,
      );
    },
  });

const commandInputTool: BackgroundCommandTool = (service, common) =>
  defineTool({
    name: 'command_input',
    description:
      'Write text to a background command: its stdin for a pipe command, its terminal (with the takeover token) for a pty command. Include "\\n" (pipes) or "\\r" (terminal) to submit a line.',
    risk: 'execute',
    capabilities: ['process.execute'],
    concurrencySafe: false,
    ...common,
    inputSchema: z.object({ id: commandId, data: z.string().max(65_536), token }),
    summarize: (input) => `command_input: ${input.id}`,
    async execute(input, context) {
      assertAuthorized(context, 'command_input');
      service.input(context.sessionId, input.id, input.data, input.token);
      return toolSuccess(`Wrote ${Buffer.byteLength(input.data)} bytes to ${input.id}.`);
    },
  });

const resizePtyTool: BackgroundCommandTool = (service, common) =>
  defineTool({
    name: 'resize_command_pty',
    description: 'Resize the terminal of a pty background command (takeover token holder only).',
    risk: 'execute',
    capabilities: ['process.execute'],
    concurrencySafe: false,
    ...common,
    inputSchema: z.object({
      id: commandId,
      columns: z.number().int().min(10).max(1_000),
      rows: z.number().int().min(5).max(500),
      token,
    }),
    summarize: (input) => `resize_command_pty: ${input.id} ${input.columns}x${input.rows}`,
    async execute(input, context) {
      assertAuthorized(context, 'resize_command_pty');
      service.resize(context.sessionId, input.id, input.columns, input.rows, input.token);
      return toolSuccess(`Resized ${input.id} to ${input.columns} columns and ${input.rows} rows.`);
    },
  });

const cancelCommandTool: BackgroundCommandTool = (service, common) =>
  defineTool({
    name: 'cancel_command',
    description: 'Stop a background command and every process it started.',
    risk: 'execute',
    capabilities: ['process.execute'],
    concurrencySafe: false,
    ...common,
    inputSchema: z.object({ id: commandId }),
    summarize: (input) => `cancel_command: ${input.id}`,
    async execute(input, context) {
      assertAuthorized(context, 'cancel_command');
      const command = await service.cancel(context.sessionId, input.id);
      return outcomeResult(describeSnapshot(command), command);
    },
  });

/** Options of {@link createBackgroundCommandTools}. */
export interface BackgroundCommandToolsOptions {
  /**
   * Declare the tools deferred (default true): most turns never start a server, so their
   * schemas are sent only after `search_tools` activates them (or when a core always loads them).
   */
  readonly deferred?: boolean;
}

/**
 * The eight background command tools over `service`: `start_command`, `list_commands`,
 * `command_terminal_capabilities`, `command_status`, `command_output`, `command_input`,
 * `resize_command_pty` and `cancel_command`. Every call sees only its own session's commands.
 * Deferred by default (see {@link BackgroundCommandToolsOptions}).
 */
export function createBackgroundCommandTools(
  service: CommandExecutionService,
  options: BackgroundCommandToolsOptions = {},
): AnyToolDefinition[] {
  const common = { deferred: options.deferred ?? true, searchMetadata: { tags: ['process', 'command', 'background'] } };
  return BACKGROUND_COMMAND_TOOLS.map((tool) => tool(service, common));
}

const BACKGROUND_COMMAND_TOOLS: readonly BackgroundCommandTool[] = [
  startCommandTool,
  listCommandsTool,
  terminalCapabilitiesTool,
  commandStatusTool,
  commandOutputTool,
  commandInputTool,
  resizePtyTool,
  cancelCommandTool,
];
