import { createHash } from 'node:crypto';
import { MCP_ERROR_CODES, McpError } from '../mcp-errors.js';

/** Longest tool name providers accept (`^[a-zA-Z0-9_-]{1,64}$`). */
export const MAX_MCP_TOOL_NAME_LENGTH = 64;

function sanitise(part: string): string {
  const cleaned = part.replace(/[^A-Za-z0-9_-]/g, '_');
  return cleaned.length > 0 ? cleaned : '_';
}

/**
 * `mcp__<server>__<tool>`, each part with every character outside `[A-Za-z0-9_-]` replaced by
 * `_`. A name longer than 64 characters keeps its first 55 and ends with `_` and 8 hex digits of
 * a hash of the original server and tool names, so long names stay distinct and stable.
 */
export function mcpToolName(serverName: string, toolName: string): string {
  const name = `mcp__${sanitise(serverName)}__${sanitise(toolName)}`;
  if (name.length <= MAX_MCP_TOOL_NAME_LENGTH) return name;
  const suffix = createHash('sha256').update(`${serverName}\u0000${toolName}`).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_MCP_TOOL_NAME_LENGTH - 9)}_${suffix}`;
}

/** Thrown at startup when two server tools map to one name; names both. */
export class McpToolNameCollisionError extends McpError {
  constructor(name: string, first: { server: string; tool: string }, second: { server: string; tool: string }) {
    super(
      MCP_ERROR_CODES.toolNameCollision,
      `Two MCP tools would both be named ${name}: tool ${JSON.stringify(first.tool)} of server ${JSON.stringify(first.server)} and tool ${JSON.stringify(second.tool)} of server ${JSON.stringify(second.server)}. Rename one of the servers in its configuration file; neither is replaced silently.`,
    );
    this.name = 'McpToolNameCollisionError';
  }
}

/** Assigns each server tool its name; a collision throws {@link McpToolNameCollisionError}. */
export function assignMcpToolNames<T extends { server: string; tool: string }>(tools: readonly T[]): Map<string, T> {
  const byName = new Map<string, T>();
  for (const tool of tools) {
    const name = mcpToolName(tool.server, tool.tool);
    const existing = byName.get(name);
    if (existing) throw new McpToolNameCollisionError(name, existing, tool);
    byName.set(name, tool);
  }
  return byName;
}
