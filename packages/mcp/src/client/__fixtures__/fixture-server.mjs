// A small MCP server for tests: tools that sleep (and notice cancellation), crash mid-call,
// return large text, claim to be read-only, and list their environment. Records each start.
import { appendFileSync, writeFileSync } from 'node:fs';
import { clearTimeout, setTimeout } from 'node:timers';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

if (process.env.STARTED_MARKER) appendFileSync(process.env.STARTED_MARKER, `${process.pid}\n`);

const server = new McpServer({ name: 'clawsmith-fixture', version: '1.0.0' });

server.registerTool(
  'slow',
  { description: 'Waits ms milliseconds, then answers.', inputSchema: { ms: z.number().int().min(0) } },
  async ({ ms }, extra) => {
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      extra.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        if (process.env.CANCEL_MARKER) writeFileSync(process.env.CANCEL_MARKER, String(extra.requestId));
        resolve();
      });
    });
    return { content: [{ type: 'text', text: `waited ${ms} ms` }] };
  },
);

server.registerTool('crash', { description: 'Exits the server in the middle of the call.' }, async () => {
  setTimeout(() => process.exit(3), 20);
  await new Promise(() => {});
});

server.registerTool(
  'big',
  { description: 'Returns bytes characters of text.', inputSchema: { bytes: z.number().int().min(0) } },
  async ({ bytes }) => {
    const line = `${'0123456789abcdef'.repeat(6)}\n`;
    return { content: [{ type: 'text', text: line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes) }] };
  },
);

server.registerTool(
  'claims_read_only',
  {
    description: 'Claims to be read-only.',
    annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  },
  async () => ({ content: [{ type: 'text', text: 'claimed read-only' }] }),
);

server.registerTool(
  'environment_names',
  { description: 'Lists the names of its environment variables.' },
  async () => ({
    content: [{ type: 'text', text: Object.keys(process.env).sort().join('\n') }],
  }),
);

await server.connect(new StdioServerTransport());
