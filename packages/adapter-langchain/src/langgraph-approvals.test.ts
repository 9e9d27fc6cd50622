import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { refuseNonLoopbackFetch, testdir } from '@clawsmith/test-utils';
import { startStreamingModelServer } from '@clawsmith/test-utils/model-servers';
import { openToolHost } from '@clawsmith/tool-host';
import { Command, MemorySaver } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI } from '@langchain/openai';
import { describe, expect, it, onTestFinished } from 'vitest';
import { langChainTools } from './langchain-tools.js';

async function setUp(steps: Parameters<typeof startStreamingModelServer>[1]) {
  refuseNonLoopbackFetch();
  const server = await startStreamingModelServer('openai', steps, { script: 'requests' });
  onTestFinished(() => server.close());
  const workspaceRoot = testdir({ 'notes.txt': 'owls hunt at night\n' });
  const host = await openToolHost({ home: testdir({}), workspaceRoot, permissionMode: 'accept-edits' });
  onTestFinished(() => host.close());
  const llm = new ChatOpenAI({
    model: 'local-model',
    apiKey: 'local',
    maxRetries: 0,
    configuration: { baseURL: server.baseURL },
  });
  return { server, workspaceRoot, host, llm };
}

describe('langChainTools approvals', () => {
  it('never runs a call twice when LangGraph re-runs a tools node after an interrupt', async () => {
    const { server, workspaceRoot, host, llm } = await setUp([
      {
        calls: [
          { name: 'edit_file', arguments: { path: 'notes.txt', oldText: 'night', newText: 'dusk' } },
          { name: 'run_command', arguments: { command: 'cat notes.txt' } },
        ],
      },
      { text: 'Done.' },
    ]);
    const clawsmith = langChainTools(host);
    // version v1: both calls run in one tools node, which LangGraph runs again from its start on resume.
    const agent = createReactAgent({ llm, tools: clawsmith.tools, checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'v1' } };
    const first = await agent.invoke({ messages: [{ role: 'user', content: 'Change night to dusk.' }] }, config);
    expect(clawsmith.pending(first).map((pending) => pending.toolName)).toEqual(['run_command']);
    const done = await agent.invoke(await clawsmith.answer(first, () => true), config);
    expect(done.messages.at(-1)?.content).toBe('Done.');
    const results = [...server.toolResults().values()];
    expect(results[0]).not.toMatch(/^\[/); // the edit's own success, not a second attempt's failure
    expect(results[1]).toContain('owls hunt at dusk');
    expect(readFileSync(join(workspaceRoot, 'notes.txt'), 'utf8')).toBe('owls hunt at dusk\n');
  });

  it('denies a call resumed with an answer that names another call', async () => {
    const { server, workspaceRoot, host, llm } = await setUp([
      { calls: [{ name: 'run_command', arguments: { command: 'rm notes.txt' } }] },
      { text: 'It was not allowed.' },
    ]);
    const clawsmith = langChainTools(host);
    const agent = createReactAgent({ llm, tools: clawsmith.tools, checkpointer: new MemorySaver(), version: 'v2' });
    const config = { configurable: { thread_id: 'mismatch' } };
    const first = await agent.invoke({ messages: [{ role: 'user', content: 'Remove notes.txt.' }] }, config);
    const [pending] = clawsmith.pending(first);
    expect(pending).toMatchObject({
      kind: 'clawsmith_approval',
      toolName: 'run_command',
      input: { command: 'rm notes.txt' },
    });
    const resume = new Command({
      resume: { [pending!.interruptId]: { toolCallId: 'some-other-call', approved: true } },
    });
    await agent.invoke(resume, config);
    expect([...server.toolResults().values()][0]).toMatch(
      /^\[denied permission_denied; retryable: no\]\nThe person declined run_command/,
    );
    expect(readFileSync(join(workspaceRoot, 'notes.txt'), 'utf8')).toBe('owls hunt at night\n');
  });

  it('asks an approve callback instead of interrupting, for tools used outside a graph', async () => {
    const { workspaceRoot, host } = await setUp([]);
    const asked: string[] = [];
    const { tools } = langChainTools(host, {
      only: ['run_command'],
      approve: (request) => (asked.push(`${request.toolName}: ${request.reason}`), false),
    });
    expect(tools.map((tool) => tool.name)).toEqual(['run_command']);
    const answer = await tools[0]!.invoke({ command: 'rm notes.txt' });
    expect(asked).toEqual(['run_command: mode accept-edits: execute needs approval']);
    expect(answer).toMatch(/^\[denied permission_denied; retryable: no\]\nThe person declined run_command/);
    expect(readFileSync(join(workspaceRoot, 'notes.txt'), 'utf8')).toBe('owls hunt at night\n');
  });
});
