import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { refuseNonLoopbackFetch, testdir } from '@clawsmith/test-utils';
import { startStreamingModelServer, type ModelStep } from '@clawsmith/test-utils/model-servers';
import { openToolHost, type OpenToolHostOptions } from '@clawsmith/tool-host';
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { InMemoryStore } from '@mastra/core/storage';
import { describe, expect, it, onTestFinished } from 'vitest';
import { mastraTools } from './mastra-tools.js';

async function setUp(steps: readonly ModelStep[], settings: Partial<OpenToolHostOptions> = {}) {
  const network = refuseNonLoopbackFetch();
  const server = await startStreamingModelServer('openai', steps, { script: 'requests' });
  onTestFinished(() => server.close());
  const workspaceRoot = testdir({ 'notes.txt': 'owls hunt at night\n' });
  const host = await openToolHost({ home: testdir({}), workspaceRoot, permissionMode: 'accept-edits', ...settings });
  onTestFinished(() => host.close());
  const clawsmith = mastraTools(host);
  const model = createOpenAICompatible({ name: 'local', baseURL: server.baseURL, apiKey: 'local' }).chatModel('m');
  const agent = new Agent({ name: 'helper', instructions: 'Help.', model, tools: clawsmith.tools });
  new Mastra({ agents: { helper: agent }, storage: new InMemoryStore(), logger: false });
  return { network, server, workspaceRoot, clawsmith, agent };
}

describe('mastraTools approvals', () => {
  it('answers a call the policy denies with the denied result, its reason and code, suspending nothing', async () => {
    const { network, server, workspaceRoot, agent } = await setUp(
      [{ calls: [{ name: 'delete_file', arguments: { path: 'notes.txt' } }] }, { text: 'I may not delete it.' }],
      { rules: [{ action: 'deny', tool: 'delete_file', reason: 'nothing is deleted in this project' }] },
    );
    const stream = await agent.stream('Delete notes.txt.', { maxSteps: 5 });
    const kinds: string[] = [];
    for await (const chunk of stream.fullStream) kinds.push(chunk.type);
    expect(kinds).not.toContain('tool-call-suspended');
    expect([...server.toolResults().values()]).toEqual([
      '[denied permission_denied; retryable: no]\nPermission denied for delete_file: rule deny (tool delete_file): nothing is deleted in this project.',
    ]);
    expect(readFileSync(join(workspaceRoot, 'notes.txt'), 'utf8')).toBe('owls hunt at night\n');
    expect(network.refused).toEqual([]);
  });

  it('denies a suspended call resumed with an answer that names another call', async () => {
    const { server, workspaceRoot, clawsmith, agent } = await setUp([
      { calls: [{ name: 'run_command', arguments: { command: 'rm notes.txt' } }] },
      { text: 'It was not allowed.' },
    ]);
    const stream = await agent.stream('Remove notes.txt.', { maxSteps: 5 });
    let toolCallId = '';
    for await (const chunk of stream.fullStream)
      if (chunk.type === 'tool-call-suspended') toolCallId = clawsmith.pending(chunk.payload)?.toolCallId ?? '';
    expect(toolCallId).not.toBe('');
    const resumed = await agent.resumeStream(
      { toolCallId: 'some-other-call', approved: true },
      { runId: stream.runId, toolCallId, maxSteps: 5 },
    );
    for await (const _chunk of resumed.fullStream);
    expect([...server.toolResults().values()][0]).toMatch(
      /^\[denied permission_denied; retryable: no\]\nThe person declined run_command/,
    );
    expect(readFileSync(join(workspaceRoot, 'notes.txt'), 'utf8')).toBe('owls hunt at night\n');
  });
});
