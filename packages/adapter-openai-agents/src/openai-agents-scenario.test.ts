import {
  ADAPTER_SCENARIO_ASKS,
  adapterScenarioSteps,
  adapterScenarioWorkspace,
  expectAdapterScenarioRun,
  expectAdapterScenarioUndo,
  scenarioPersonApproves,
  testdir,
} from '@clawsmith/test-utils';
import { startStreamingModelServer } from '@clawsmith/test-utils/model-servers';
import { openToolHost } from '@clawsmith/tool-host';
import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled } from '@openai/agents';
import OpenAI from 'openai';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openAiAgentsTools } from './openai-agents-tools.js';

// Traces would go to the vendor's servers: tests talk to 127.0.0.1 only.
setTracingDisabled(true);

function model(baseURL: string) {
  return new OpenAIChatCompletionsModel(new OpenAI({ baseURL, apiKey: 'local' }), 'local-model');
}

describe('openAiAgentsTools with the real Agents SDK against a Chat Completions server on 127.0.0.1', () => {
  it(
    'reads, fails a test, edits, passes it, keeps a large output, refuses, takes a denial, then undoes from code',
    { timeout: 60_000 },
    async () => {
      // Strict mode: the model sends every field, null for those it leaves out.
      const steps = adapterScenarioSteps({ strictNulls: true });
      const server = await startStreamingModelServer('openai', steps, { script: 'requests' });
      onTestFinished(() => server.close());
      const workspaceRoot = adapterScenarioWorkspace();
      const host = await openToolHost({ home: testdir({}), workspaceRoot, permissionMode: 'accept-edits' });
      onTestFinished(() => host.close());
      const clawsmith = openAiAgentsTools(host);
      const agent = new Agent({
        name: 'fixer',
        instructions: 'Fix it.',
        tools: clawsmith.tools,
        model: model(server.baseURL),
      });
      const asked: string[] = [];
      let result = await run(agent, 'Make the test pass.', { maxTurns: 20 });
      while (result.interruptions.length > 0) {
        await clawsmith.answer(result, (pending) => {
          const command = (pending.input as { command: string }).command;
          asked.push(`${pending.toolName} ${command}: ${pending.reason}`);
          return scenarioPersonApproves(command);
        });
        result = await run(agent, result.state, { maxTurns: 20 });
      }
      expect(asked).toEqual(
        ADAPTER_SCENARIO_ASKS.map((command) => `run_command ${command}: mode accept-edits: execute needs approval`),
      );
      expect(result.finalOutput).toBe('The test passes now.');
      expect(server.requests).toHaveLength(steps.length);
      expectAdapterScenarioRun([...server.toolResults().values()], workspaceRoot, /not approved|rejected|denied/i);
      await expectAdapterScenarioUndo(host, workspaceRoot);
    },
  );
});
