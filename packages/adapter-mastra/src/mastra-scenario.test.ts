import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
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
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { InMemoryStore } from '@mastra/core/storage';
import { describe, expect, it, onTestFinished } from 'vitest';
import { mastraTools } from './mastra-tools.js';

describe('mastraTools in a real Mastra Agent against a Chat Completions server on 127.0.0.1', () => {
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
      const clawsmith = mastraTools(host);
      const model = createOpenAICompatible({ name: 'local', baseURL: server.baseURL, apiKey: 'local' }).chatModel('m');
      const agent = new Agent({ name: 'fixer', instructions: 'Fix it.', model, tools: clawsmith.tools });
      new Mastra({ agents: { fixer: agent }, storage: new InMemoryStore(), logger: false });
      const asked: string[] = [];
      let stream = await agent.stream('Make the test pass.', { maxSteps: 20 });
      for (let round = 0; round < 10; round += 1) {
        let resume: { toolCallId: string; approved: boolean } | undefined;
        for await (const chunk of stream.fullStream) {
          if (chunk.type !== 'tool-call-suspended') continue;
          const pending = clawsmith.pending(chunk.payload);
          if (!pending) continue;
          const command = (pending.input as { command: string }).command;
          asked.push(`${pending.toolName} ${command}: ${pending.reason}`);
          resume = { toolCallId: pending.toolCallId, approved: scenarioPersonApproves(command) };
        }
        if (!resume) break;
        stream = await agent.resumeStream(resume, { runId: stream.runId, toolCallId: resume.toolCallId, maxSteps: 20 });
      }
      expect(asked).toEqual(
        ADAPTER_SCENARIO_ASKS.map((command) => `run_command ${command}: mode accept-edits: execute needs approval`),
      );
      expect(server.requests).toHaveLength(steps.length);
      expectAdapterScenarioRun(
        [...server.toolResults().values()],
        workspaceRoot,
        /^\[denied permission_denied; retryable: no\]\nThe person declined run_command/,
      );
      // A restore point per call that ran (Mastra tells a tool nothing of its step); the declined one ran nothing.
      expect(await expectAdapterScenarioUndo(host, workspaceRoot)).toBe(6);
      expect(network.refused).toEqual([]);
    },
  );
});
