import { MCP_ERROR_CODES, McpError } from '../mcp-errors.js';
import { loadMcpConfiguration, type ConfiguredMcpServer } from './mcp-configuration.js';
import { McpCredentialStore } from './oauth/credential-store.js';
import { McpServerConnection } from './server-connection.js';
import { catalogueTools, ToolCatalogueStore } from './tool-catalogue.js';
import { McpTrustStore } from './trust-store.js';

function projectServer(options: { homeDir: string; workspaceRoot: string; name: string }): ConfiguredMcpServer {
  const configuration = loadMcpConfiguration(options);
  const server = configuration.servers.find((candidate) => candidate.name === options.name);
  if (!server) {
    const names = configuration.servers.map((candidate) => candidate.name);
    throw new McpError(
      MCP_ERROR_CODES.serverNotFound,
      `No MCP server is named ${JSON.stringify(options.name)} in ${options.workspaceRoot}${names.length ? ` (configured: ${names.join(', ')})` : ''}. Check the name with: clawsmith mcp list`,
    );
  }
  if (server.scope !== 'project') {
    throw new McpError(
      MCP_ERROR_CODES.serverNotFound,
      `The MCP server ${JSON.stringify(options.name)} comes from your own file ${server.file}; only project servers need trust.`,
    );
  }
  return server;
}

/**
 * Records that the person trusts this exact project entry, then starts the server once to store
 * its tool list (the person has just allowed it to run), so later sessions start it only when a
 * tool is called. Returns the number of tools, or the problem that kept them from being listed.
 */
export async function trustMcpServer(options: {
  homeDir: string;
  workspaceRoot: string;
  name: string;
  environment?: NodeJS.ProcessEnv;
}): Promise<{ server: ConfiguredMcpServer; toolCount?: number; problem?: string }> {
  const server = projectServer(options);
  new McpTrustStore(options.homeDir).trust(server, options.workspaceRoot);
  const connection = new McpServerConnection(server, {
    workspaceRoot: options.workspaceRoot,
    credentials: new McpCredentialStore(options.homeDir),
    ...(options.environment ? { environment: options.environment } : {}),
  });
  try {
    const tools = catalogueTools(await connection.listTools());
    new ToolCatalogueStore(options.homeDir).write(server.entrySha256, server.name, tools, {
      resources: connection.offersResources,
    });
    return { server, toolCount: tools.length };
  } catch (error) {
    return { server, problem: (error as Error).message };
  } finally {
    await connection.close();
  }
}

/** Forgets trust in a project server; returns whether it was trusted. */
export function untrustMcpServer(options: { homeDir: string; workspaceRoot: string; name: string }): boolean {
  const store = new McpTrustStore(options.homeDir);
  const configuration = loadMcpConfiguration(options);
  const known = configuration.servers.some((server) => server.name === options.name && server.scope === 'project');
  const removed = store.untrust(options.name, options.workspaceRoot);
  if (!removed && !known) projectServer(options);
  return removed;
}
