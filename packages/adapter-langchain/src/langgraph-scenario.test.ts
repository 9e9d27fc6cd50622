import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ADAPTER_SCENARIO_ASKS,
  adapterScenarioSteps,
  adapterScenarioWorkspace,
  expectAdapterScenarioRun,
  expectAdapterScenarioUndo,
  refuseNonLoopbackFetch,
  scenarioPersonApproves,
  testdir,
} from '@clawsmith/test-utils';
import { startStreamingModelServer } from '@clawsmith/test-utils/model-servers';
import { openToolHost } from '@clawsmith/tool-host';
import { MemorySaver } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI } from '@langchain/openai';
import { describe, expect, it, onTestFinished } from 'vitest';
import { langChainTools } from './langchain-tools.js';

function chatModel(baseURL: string) {
  return new ChatOpenAI({ model: 'local-model', apiKey: 'local', maxRetries: 0, configuration: { baseURL } });
}

describe('langChainTools in a real LangGraph agent against a Chat Completions server on 127.0.0.1', () => {
  it(
    'reads, fails a test, edits, passes it, keeps a large output, refuses, takes a denial, then undoes from code',
    { timeout: 60_000 },
    async () => {
      const network = refuseNonLoopbackFetch();
      const steps = adapterScenarioSteps();
      const server = await startStreamingModelServer('openai', steps, { script: 'requests' });
      onTestFinished(() => server.close());
      const workspaceRoot = adapterScenarioWorkspace();
      const host = await openToolHost({ home: testdir({}), workspaceRoot, permissionMode: 'accept-edits' });
      onTestFinished(() => host.close());
      const clawsmith = langChainTools(host);
      const agent = createReactAgent({
        llm: chatModel(server.baseURL),
        tools: clawsmith.tools,
        checkpointer: new MemorySaver(),
        version: 'v2',
      });
      const config = { configurable: { thread_id: 'scenario' }, recursionLimit: 50 };
      const asked: string[] = [];
      const streamed: string[] = [];
      // Streamed as an application shows it: token by token ("messages"), so the model streams too.
      let input: Parameters<typeof agent.stream>[0] = { messages: [{ role: 'user', content: 'Make the test pass.' }] };
      for (let round = 0; round < 10; round += 1) {
        for await (const [message] of await agent.stream(input, { ...config, streamMode: 'messages' }))
          if (message.getType() === 'ai' && typeof message.content === 'string') streamed.push(message.content);
        const snapshot = await agent.getState(config);
        if (clawsmith.pending(snapshot).length === 0) break;
        input = await clawsmith.answer(snapshot, (pending) => {
          const command = (pending.input as { command: string }).command;
          asked.push(`${pending.toolName} ${command}: ${pending.reason}`);
          return scenarioPersonApproves(command);
        });
      }
      expect(asked).toEqual(
        ADAPTER_SCENARIO_ASKS.map((command) => `run_command ${command}: mode accept-edits: execute needs approval`),
      );
      expect(streamed.join('')).toBe('The test passes now.');
      expect(server.requests).toHaveLength(steps.length);
      expect(server.requests.every((request) => request.stream === true)).toBe(true);
      expectAdapterScenarioRun(
        [...server.toolResults().values()],
        workspaceRoot,
        /^\[denied permission_denied; retryable: no\]\nThe person declined run_command/,
      );
      // One restore point per LangGraph step that ran a tool; the declined step ran none.
      expect(await expectAdapterScenarioUndo(host, workspaceRoot)).toBe(6);
      expect(network.refused).toEqual([]);
    },
  );

  it('answers a call the policy denies with the denied result, its reason and code, interrupting nobody', async () => {
    const network = refuseNonLoopbackFetch();
    const server = await startStreamingModelServer(
      'openai',
      [{ calls: [{ name: 'delete_file', arguments: { path: 'math.mjs' } }] }, { text: 'I may not delete it.' }],
      { script: 'requests' },
    );
    onTestFinished(() => server.close());
    const workspaceRoot = testdir({ 'math.mjs': 'export {};\n' });
    const host = await openToolHost({
      home: testdir({}),
      workspaceRoot,
      rules: [{ action: 'deny', tool: 'delete_file', reason: 'nothing is deleted in this project' }],
    });
    onTestFinished(() => host.close());
    const clawsmith = langChainTools(host);
    const agent = createReactAgent({
      llm: chatModel(server.baseURL),
      tools: clawsmith.tools,
      checkpointer: new MemorySaver(),
    });
    const state = await agent.invoke(
      { messages: [{ role: 'user', content: 'Delete math.mjs.' }] },
      {
        configurable: { thread_id: 'deny' },
      },
    );
    expect(clawsmith.pending(state)).toEqual([]);
    expect([...server.toolResults().values()]).toEqual([
      '[denied permission_denied; retryable: no]\nPermission denied for delete_file: rule deny (tool delete_file): nothing is deleted in this project.',
    ]);
    const toolMessage = state.messages.find((message) => message.getType() === 'tool');
    expect(toolMessage).toMatchObject({ status: 'error', artifact: { status: 'denied', code: 'permission_denied' } });
    expect(readFileSync(join(workspaceRoot, 'math.mjs'), 'utf8')).toBe('export {};\n');
    expect(network.refused).toEqual([]);
  });
});
