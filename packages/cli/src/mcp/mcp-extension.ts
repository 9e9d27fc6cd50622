import { existsSync } from 'node:fs';
import type { McpElicitationHandler, McpTools } from '@clawsmith/mcp';

/**
 * The session's MCP tools for `clawsmith run` and `chat`: the user file in the home and the
 * workspace's project files. Without any configuration file nothing is loaded (the MCP SDK is
 * not even imported). Notices (servers left out, crashes) go to `onNotice`.
 */
export async function openMcpExtension(options: {
  homeDir: string;
  workspaceRoot?: string;
  onNotice: (notice: string) => void;
  onElicitation?: McpElicitationHandler;
}): Promise<McpTools | undefined> {
  const { mcpConfigurationFiles, openMcpTools } = await import('@clawsmith/mcp');
  const configured = mcpConfigurationFiles(options.homeDir, options.workspaceRoot).some(({ file }) => existsSync(file));
  if (!configured) return undefined;
  const tools = await openMcpTools({
    homeDir: options.homeDir,
    ...(options.workspaceRoot ? { workspaceRoot: options.workspaceRoot } : {}),
    onNotice: options.onNotice,
    ...(options.onElicitation ? { onElicitation: options.onElicitation } : {}),
  });
  for (const problem of tools.configuration.problems)
    options.onNotice(`${problem.file}${problem.server ? ` (${problem.server})` : ''}: ${problem.message}`);
  return tools;
}
