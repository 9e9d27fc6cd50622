import type { McpServer } from '@agentclientprotocol/sdk';
import type { EditorMcpServer } from '@clawsmith/mcp';

/** The editor's MCP servers clawsmith starts, and the ones it leaves out with the reason. */
export interface EditorServerSelection {
  readonly servers: readonly EditorMcpServer[];
  readonly leftOut: readonly string[];
}

/**
 * The `mcpServers` of `session/new` or `session/load` as entries of our configuration shape.
 * Only stdio servers are started (`initialize` says `http: false`, `sse: false`); a remote one
 * an editor sends anyway is left out with a notice rather than dropped in silence.
 */
export function editorMcpServers(mcpServers: readonly McpServer[]): EditorServerSelection {
  const servers: EditorMcpServer[] = [];
  const leftOut: string[] = [];
  for (const server of mcpServers) {
    if ('type' in server && (server.type === 'http' || server.type === 'sse')) {
      leftOut.push(
        `the editor's MCP server ${JSON.stringify(server.name)} is a remote (${server.type}) server, which clawsmith acp does not connect; add it to <home>/mcp.json instead`,
      );
      continue;
    }
    const stdio = server as Extract<McpServer, { command: string }>;
    servers.push({
      name: stdio.name,
      entry: {
        command: stdio.command,
        args: [...stdio.args],
        ...(stdio.env.length > 0
          ? { env: Object.fromEntries(stdio.env.map((variable) => [variable.name, variable.value])) }
          : {}),
      },
    });
  }
  return { servers, leftOut };
}
