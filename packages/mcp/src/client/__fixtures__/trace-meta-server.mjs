// A one-tool MCP server for tests: `request_meta` answers with the `_meta` of the request it got.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'clawsmith-trace-fixture', version: '1.0.0' });

server.registerTool('request_meta', { description: 'Answers with the _meta of its request.' }, async (extra) => ({
  content: [{ type: 'text', text: JSON.stringify(extra._meta ?? null) }],
}));

await server.connect(new StdioServerTransport());
