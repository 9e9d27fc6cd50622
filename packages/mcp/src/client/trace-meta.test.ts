import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testdir } from '@clawsmith/test-utils';
import type { ToolExecutionContext } from '@clawsmith/tool-protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import { writeMcpConfig } from './__fixtures__/mcp-servers.js';
import { openMcpTools } from './mcp-tools.js';

const traceServer = fileURLToPath(new URL('./__fixtures__/trace-meta-server.mjs', import.meta.url));
const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

function context(extra: Partial<ToolExecutionContext> = {}): ToolExecutionContext {
  return {
    authorized: true,
    workspaceRoot: testdir(),
    sessionId: 'session',
    turnId: 'turn',
    toolCallId: 'call',
    signal: new AbortController().signal,
    ...extra,
  };
}

describe('MCP calls and trace context', () => {
  it("send the call's traceparent and tracestate in the request's _meta, and nothing for an untraced call", async () => {
    const home = testdir();
    writeMcpConfig(join(home, 'mcp.json'), { trace: { command: process.execPath, args: [traceServer] } });
    const tools = await openMcpTools({ homeDir: home });
    onTestFinished(() => tools.close());
    const tool = tools.tools.find((candidate) => candidate.name === 'mcp__trace__request_meta')!;

    const traced = await tool.execute({}, context({ traceContext: { traceparent, tracestate: 'vendor=1' } }));
    expect(JSON.parse((traced as { content: string }).content)).toEqual({ traceparent, tracestate: 'vendor=1' });

    const untraced = await tool.execute({}, context());
    expect(JSON.parse((untraced as { content: string }).content)).toBeNull();
  });
});
