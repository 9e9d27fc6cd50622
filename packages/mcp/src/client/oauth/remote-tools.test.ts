import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestdir, type TemporaryTree } from '@clawsmith/test-utils';
import { startOAuthMcpServer, type OAuthMcpServer } from '@clawsmith/test-utils/oauth-mcp-server';
import type { ToolExecutionContext } from '@clawsmith/tool-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpElicitationRequest } from '../elicitation.js';
import { openMcpTools, type McpTools, type McpToolsOptions } from '../mcp-tools.js';
import { signInToMcpServer } from './sign-in.js';

const context: ToolExecutionContext = {
  authorized: true,
  workspaceRoot: '/',
  sessionId: 's',
  turnId: 't',
  toolCallId: 'c',
  signal: new AbortController().signal,
};

let server: OAuthMcpServer;
let home: string;
let folder: TemporaryTree;
beforeAll(async () => {
  server = await startOAuthMcpServer();
  folder = createTestdir();
  home = folder.path;
  writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { remote: { url: server.url } } }));
  await signInToMcpServer({
    homeDir: home,
    name: 'remote',
    openAuthorizationUrl: (url) => void fetch(url, { redirect: 'follow' }).then((response) => response.text()),
  });
});
afterAll(async () => {
  await server.close();
  folder.remove();
});

async function withTools<T>(options: Partial<McpToolsOptions>, use: (tools: McpTools) => Promise<T>): Promise<T> {
  const tools = await openMcpTools({ homeDir: home, ...options });
  try {
    return await use(tools);
  } finally {
    await tools.close();
  }
}

function tool(tools: McpTools, name: string) {
  const found = tools.tools.find((candidate) => candidate.name === `mcp__remote__${name}`);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

describe('a signed-in remote server', { timeout: 60_000 }, () => {
  it('speaks the newest revision the SDK knows', async () => {
    await withTools({}, async (tools) => {
      await tool(tools, 'whoami').execute({}, context);
      expect(tools.connections.get('remote')?.protocolVersion).toBe('2025-11-25');
    });
  });

  it('gives structured output to the model and to the display', async () => {
    await withTools({}, async (tools) => {
      const result = await tool(tools, 'forecast').execute({ city: 'Lyon' }, context);
      expect(result.status).toBe('success');
      expect(result.content).toBe(
        'Lyon: 21.5 °C, clear\n[structured content]\n{"city":"Lyon","celsius":21.5,"sky":"clear"}',
      );
      expect(result.display).toMatchObject({ kind: 'json', title: 'remote · forecast' });
      expect(JSON.parse((result.display as { body: string }).body)).toEqual({
        city: 'Lyon',
        celsius: 21.5,
        sky: 'clear',
      });
    });
  });

  it('reads a resource a result linked to, through the server’s read_resource tool', async () => {
    await withTools({}, async (tools) => {
      const linked = await tool(tools, 'latest_report').execute({}, context);
      expect(linked.content).toBe('The report is ready.\n[resource link latest report: report://latest]');
      const reader = tool(tools, 'read_resource');
      expect(reader).toMatchObject({ deferred: true, risk: 'execute' });
      expect(reader.inputSchema.safeParse({}).success).toBe(false);
      const read = await reader.execute({ uri: 'report://latest' }, context);
      expect(read).toMatchObject({
        status: 'success',
        content: '[resource report://latest (text/plain)]\nReport: all systems nominal.',
      });
      const missing = await reader.execute({ uri: 'report://nothing' }, context);
      expect(missing).toMatchObject({ status: 'error', code: 'mcp_protocol_error' });
    });
  });

  it('puts a server’s question to the person through the hook, and declines with a reason without one', async () => {
    const asked: McpElicitationRequest[] = [];
    await withTools(
      {
        onElicitation: (request) => {
          asked.push(request);
          return { action: 'accept', content: { confirm: true } };
        },
      },
      async (tools) => {
        const result = await tool(tools, 'confirm_deploy').execute({ target: 'staging' }, context);
        expect(result.content).toBe('answer: accept {"confirm":true}');
      },
    );
    expect(asked).toEqual([
      {
        server: 'remote',
        message: 'Deploy to staging?',
        requestedSchema: expect.objectContaining({ required: ['confirm'] }),
        // The one call in flight names whose question it is.
        sessionId: 's',
        toolCallId: 'c',
      },
    ]);
    const notices: string[] = [];
    await withTools({ onNotice: (notice) => notices.push(notice) }, async (tools) => {
      const result = await tool(tools, 'confirm_deploy').execute({ target: 'production' }, context);
      expect(result.content).toBe(
        'answer: decline (reason: nobody can answer in this session (it runs without a person at the terminal).)',
      );
    });
    expect(notices).toContain(
      'MCP server remote asked for input; declined: nobody can answer in this session (it runs without a person at the terminal).',
    );
  });
});
