// The entry `@clawsmith/mcp/configuration`: where MCP servers are configured, without the MCP SDK,
// so that a program can find out whether any server is configured before it loads the client.
// Everything exported here is public, and is also exported from the package root.

export { mcpConfigurationFiles } from './client/mcp-configuration.js';
