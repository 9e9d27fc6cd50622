import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { testdir } from '@clawsmith/test-utils';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BIN, childEnvironment } from './cli-harness.js';

const README = fileURLToPath(new URL('../../../../README.md', import.meta.url));

/** The desktop client configuration the root README gives, as written there. */
function readmeConfiguration(): { command: string; args: string[] } {
  const text = readFileSync(README, 'utf8');
  const section = text.slice(text.indexOf("## Use clawsmith's tools from an MCP client"));
  const block = /```json\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('The README section has no json block');
  return (JSON.parse(block) as { mcpServers: { clawsmith: { command: string; args: string[] } } }).mcpServers.clawsmith;
}

describe('the README’s MCP client configuration', { timeout: 120_000 }, () => {
  it('launches clawsmith mcp serve as a desktop client would, and a call works', async () => {
    const entry = readmeConfiguration();
    expect(entry.command).toBe('clawsmith');
    const workspace = testdir({ 'notes.txt': 'from the readme\n' });
    // As the client would run it, with `clawsmith` being the built binary and the folder a real one.
    const args = entry.args.map((arg) => (arg === '/path/to/your/project' ? workspace : arg));
    expect(args).toEqual(['mcp', 'serve', '--workspace', workspace]);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, ...args],
      env: childEnvironment(testdir()),
    });
    const client = new Client({ name: 'desktop-client', version: '1.0.0' });
    await client.connect(transport);
    onTestFinished(() => client.close());
    const read = (await client.callTool({ name: 'read_file', arguments: { path: 'notes.txt' } })) as CallToolResult;
    expect(read.isError).toBe(false);
    expect(JSON.stringify(read.content)).toContain('from the readme');
    expect(read.structuredContent).toMatchObject({ status: 'success' });
  });
});
