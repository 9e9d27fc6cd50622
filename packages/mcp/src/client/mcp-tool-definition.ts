import {
  ClawsmithError,
  assertAuthorized,
  toolCancelled,
  toolError,
  type JsonValue,
  type ToolDefinition,
  type ToolExecutionContext,
  type ToolExecutionResult,
} from '@clawsmith/tool-protocol';
import type { z } from 'zod';
import { argumentSchema } from './argument-schema.js';
import { mapCallResult } from './call-result.js';
import { MCP_ERROR_CODES } from '../mcp-errors.js';
import { mcpToolRisk } from './mcp-tool-risk.js';
import { outputSchemaCheck } from './output-schema.js';
import type { McpServerConnection } from './server-connection.js';
import type { CataloguedTool } from './tool-catalogue.js';

const SUMMARY_LENGTH = 160;

function annotationTags(tool: CataloguedTool): string[] {
  const hints = tool.annotations ?? {};
  const tags: string[] = [];
  if (hints.readOnlyHint === true) tags.push('read-only');
  if (hints.destructiveHint === true) tags.push('destructive');
  if (hints.idempotentHint === true) tags.push('idempotent');
  if (hints.openWorldHint === true) tags.push('open-world');
  return tags;
}

/**
 * One MCP server tool as a clawsmith tool: `execute` takes arguments that passed `inputSchema`
 * and resolves to a result (`success`, or `error` with an `mcp_*` code for what the server or the
 * connection answered); it throws `unauthorized` when `context.authorized` is not `true`.
 */
export type McpTool = ToolDefinition<Record<string, unknown>, ToolExecutionResult>;

/** Whether the session should be told (once) that the server's tool list changed. */
export interface ToolListNotice {
  take(): string | undefined;
}

/**
 * One server tool as a deferred clawsmith tool: the server's JSON Schema shown as given and
 * validating arguments, risk from {@link mcpToolRisk}, search words from title, description and
 * annotations, and `execute` calling the server through `connection`.
 */
export function mcpToolDefinition(options: {
  name: string;
  tool: CataloguedTool;
  connection: McpServerConnection;
  notice: ToolListNotice;
}): McpTool {
  const { name, tool, connection } = options;
  const server = connection.server;
  const { risk, capabilities } = mcpToolRisk({
    annotations: tool.annotations,
    trustAnnotations: server.entry.trustAnnotations === true,
    policy: server.entry.tools?.[tool.name],
  });
  const heading = tool.title && tool.title !== tool.name ? `${tool.title}: ` : '';
  const description = `${heading}${tool.description ?? '(no description)'} (tool ${JSON.stringify(tool.name)} of MCP server ${JSON.stringify(server.name)})`;
  const aliases = [tool.name, ...(tool.title ? [tool.title] : [])];
  let inputSchema: z.ZodType<Record<string, unknown>> | undefined;
  const checkOutput = tool.outputSchema ? outputSchemaCheck(tool.outputSchema) : undefined;
  return Object.freeze({
    name,
    description,
    risk,
    capabilities,
    concurrencySafe: risk === 'read',
    deferred: true,
    // Made when first read (a call's validation): most tools of a table are never called, and
    // building a zod schema for each was most of the cost of opening the table.
    get inputSchema() {
      return (inputSchema ??= argumentSchema(tool.inputSchema));
    },
    inputJsonSchema: tool.inputSchema as { [key: string]: JsonValue },
    searchMetadata: Object.freeze({
      aliases,
      tags: ['mcp', server.name, ...annotationTags(tool)],
      ...(tool.title ? { searchHint: tool.title } : {}),
    }),
    summarize(input: Record<string, unknown>): string {
      const text = JSON.stringify(input) ?? '{}';
      const shown = text.length > SUMMARY_LENGTH ? `${text.slice(0, SUMMARY_LENGTH)}…` : text;
      return `${server.name} · ${tool.name} ${shown}`;
    },
    async execute(input: Record<string, unknown>, context: ToolExecutionContext): Promise<ToolExecutionResult> {
      assertAuthorized(context, name);
      let result: ToolExecutionResult;
      try {
        const answer = await connection.callTool(tool.name, input, {
          signal: context.signal,
          origin: { sessionId: context.sessionId, toolCallId: context.toolCallId },
          ...(context.reportProgress ? { onProgress: context.reportProgress } : {}),
          ...(context.traceContext ? { traceContext: context.traceContext } : {}),
        });
        const problem =
          checkOutput && answer.isError !== true
            ? answer.structuredContent === undefined
              ? 'it declares an output schema but returned no structuredContent'
              : checkOutput(answer.structuredContent)
            : undefined;
        result = problem
          ? toolError(
              MCP_ERROR_CODES.protocolError,
              `The MCP server ${JSON.stringify(server.name)} answered ${tool.name} with a result that breaks the tool's own output schema (${problem}); the result was not used.`,
            )
          : await mapCallResult(answer, {
              serverName: server.name,
              toolName: tool.name,
              artifacts: context.artifacts,
            });
      } catch (error) {
        if (context.signal.aborted) return toolCancelled();
        if (!ClawsmithError.isInstance(error)) throw error;
        result = toolError(error.code, error.message, { retryable: error.retryable });
      }
      const notice = options.notice.take();
      return notice ? { ...result, content: `${result.content}\n[${notice}]` } : result;
    },
  });
}
