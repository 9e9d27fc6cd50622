import { existsSync } from 'node:fs';
import type { EditorMcpServer, McpElicitationHandler, McpTools } from '@clawsmith/mcp';
import { mcpConfigurationFiles } from '@clawsmith/mcp/configuration';

/**
 * The session's MCP tools for `clawsmith run`, `chat` and `acp`: the user file in the home, the
 * workspace's project files, and (`acp`) the servers the editor configured for the session.
 * Without any of them nothing more is loaded: the files are found through the package's light
 * `configuration` entry, and the root with the MCP SDK (some 750 KB of the bundle to compile) is
 * imported only when a server is configured. Notices (servers left out, crashes) go to `onNotice`.
 */
export async function openMcpExtension(options: {
  homeDir: string;
  workspaceRoot?: string;
  editorServers?: readonly EditorMcpServer[];
  onNotice: (notice: string) => void;
  onElicitation?: McpElicitationHandler;
}): Promise<McpTools | undefined> {
  const configured =
    (options.editorServers?.length ?? 0) > 0 ||
    mcpConfigurationFiles(options.homeDir, options.workspaceRoot).some(({ file }) => existsSync(file));
  if (!configured) return undefined;
  const { openMcpTools } = await import('@clawsmith/mcp');
  const tools = await openMcpTools({
    homeDir: options.homeDir,
    ...(options.workspaceRoot ? { workspaceRoot: options.workspaceRoot } : {}),
    ...(options.editorServers ? { editorServers: options.editorServers } : {}),
    onNotice: options.onNotice,
    ...(options.onElicitation ? { onElicitation: options.onElicitation } : {}),
  });
  for (const problem of tools.configuration.problems)
    options.onNotice(`${problem.file}${problem.server ? ` (${problem.server})` : ''}: ${problem.message}`);
  return tools;
}
