import {
  ClawsmithError,
  assertAuthorized,
  toolCancelled,
  toolError,
  type ToolExecutionContext,
  type ToolExecutionResult,
} from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { mapCallResult } from './call-result.js';
import type { McpTool } from './mcp-tool-definition.js';
import { mcpToolRisk } from './mcp-tool-risk.js';
import type { McpServerConnection } from './server-connection.js';

/** The server tool name this tool stands in for in names and per-tool policy. */
export const READ_RESOURCE_TOOL = 'read_resource';

const inputSchema = z.strictObject({
  uri: z.string().min(1).max(8_192).describe('The resource URI, as a resource_link from this server gave it'),
});

/**
 * `mcp__<server>__read_resource`: reads a resource of one server (`resources/read`), such as a
 * `resource_link` one of its tools returned. Deferred, and held to the same risk as the server's
 * tools: the person's `tools.read_resource` policy, or the server's trust in annotations (a read
 * of an open world), or by default every capability.
 */
export function readResourceTool(name: string, connection: McpServerConnection): McpTool {
  const server = connection.server;
  const { risk, capabilities } = mcpToolRisk({
    annotations: { readOnlyHint: true, openWorldHint: true },
    trustAnnotations: server.entry.trustAnnotations === true,
    policy: server.entry.tools?.[READ_RESOURCE_TOOL],
  });
  return Object.freeze({
    name,
    description: `Reads a resource of MCP server ${JSON.stringify(server.name)} by URI (resources/read), such as a resource link one of its tools returned.`,
    risk,
    capabilities,
    concurrencySafe: risk === 'read',
    deferred: true,
    inputSchema: inputSchema as unknown as z.ZodType<Record<string, unknown>>,
    searchMetadata: Object.freeze({
      aliases: ['read resource', 'resource link'],
      tags: ['mcp', server.name, 'resource'],
    }),
    summarize: (input: Record<string, unknown>) => `${server.name} · read ${String(input.uri).slice(0, 160)}`,
    async execute(input: Record<string, unknown>, context: ToolExecutionContext): Promise<ToolExecutionResult> {
      assertAuthorized(context, name);
      const uri = String(input.uri);
      try {
        const contents = await connection.readResource(uri, { signal: context.signal });
        return await mapCallResult(
          {
            content: contents.map((item) =>
              typeof item.text === 'string'
                ? {
                    type: 'text',
                    text: `[resource ${item.uri}${item.mimeType ? ` (${item.mimeType})` : ''}]\n${item.text}`,
                  }
                : { type: 'resource', resource: item },
            ),
          },
          { serverName: server.name, toolName: READ_RESOURCE_TOOL, artifacts: context.artifacts },
        );
      } catch (error) {
        if (context.signal.aborted) return toolCancelled();
        if (!ClawsmithError.isInstance(error)) throw error;
        return toolError(error.code, error.message, { retryable: error.retryable });
      }
    },
  });
}
