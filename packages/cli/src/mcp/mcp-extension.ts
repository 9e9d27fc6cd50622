import { existsSync } from 'node:fs';
import type { EditorMcpServer, McpElicitationHandler, McpTools } from '@clawsmith/mcp';

/**
 * The session's MCP tools for `clawsmith run`, `chat` and `acp`: the user file in the home, the
 * workspace's project files, and (`acp`) the servers the editor configured for the session.
 * Without any of them nothing is loaded (the MCP SDK is not even imported). Notices (servers
 * left out, crashes) go to `onNotice`.
 */
export async function openMcpExtension(options: {
  homeDir: string;
  workspaceRoot?: string;
  editorServers?: readonly EditorMcpServer[];
  onNotice: (notice: string) => void;
  onElicitation?: McpElicitationHandler;
}): Promise<McpTools | undefined> {
  const { mcpConfigurationFiles, openMcpTools } = await import('@clawsmith/mcp');
  const configured =
    (options.editorServers?.length ?? 0) > 0 ||
    mcpConfigurationFiles(options.homeDir, options.workspaceRoot).some(({ file }) => existsSync(file));
  if (!configured) return undefined;
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
