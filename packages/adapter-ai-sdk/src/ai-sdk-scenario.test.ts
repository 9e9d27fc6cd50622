import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
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
import { stepCountIs, streamText, type ModelMessage } from 'ai';
import { describe, expect, it, onTestFinished } from 'vitest';
import { aiSdkTools } from './ai-sdk-tools.js';

const MATH = 'export const add = (a, b) => a - b;\n';

describe('aiSdkTools with the real AI SDK against a Chat Completions server on 127.0.0.1', () => {
  it(
    'reads, fails a test, edits, passes it, keeps a large output, refuses, takes a denial, then undoes from code',
    { timeout: 60_000 },
    async () => {
      const steps = adapterScenarioSteps();
      const server = await startStreamingModelServer('openai', steps, { script: 'requests' });
      onTestFinished(() => server.close());
      const workspaceRoot = adapterScenarioWorkspace();
      const host = await openToolHost({ home: testdir({}), workspaceRoot, permissionMode: 'accept-edits' });
      onTestFinished(() => host.close());
      const tools = aiSdkTools(host);
      const model = createOpenAICompatible({ name: 'local', baseURL: server.baseURL, apiKey: 'local' }).chatModel(
        'local-model',
      );
      const messages: ModelMessage[] = [{ role: 'user', content: 'Make the test pass.' }];
      const asked: string[] = [];
      for (let round = 0; round < 10; round += 1) {
        const result = streamText({ model, tools, messages, stopWhen: stepCountIs(20) });
        messages.push(...(await result.response).messages);
        const requests = (await result.content).filter((part) => part.type === 'tool-approval-request');
        if (requests.length === 0) break;
        messages.push({
          role: 'tool',
          content: requests.map((request) => {
            const command = (request.toolCall.input as { command: string }).command;
            asked.push(command);
            return {
              type: 'tool-approval-response',
              approvalId: request.approvalId,
              approved: scenarioPersonApproves(command),
            };
          }),
        });
      }
      expect(asked).toEqual(ADAPTER_SCENARIO_ASKS);
      expect(server.requests).toHaveLength(steps.length);
      // The SDK's own answer to the person's no.
      expectAdapterScenarioRun([...server.toolResults().values()], workspaceRoot, 'Tool call execution denied.');
      // One restore point per step that ran a tool; the declined step ran none.
      expect(await expectAdapterScenarioUndo(host, workspaceRoot)).toBe(6);
    },
  );

  it('answers a call the policy denies with the denied result, its reason and code, asking nobody', async () => {
    const server = await startStreamingModelServer(
      'openai',
      [{ calls: [{ name: 'delete_file', arguments: { path: 'math.mjs' } }] }, { text: 'I may not delete it.' }],
      { script: 'requests' },
    );
    onTestFinished(() => server.close());
    const workspaceRoot = testdir({ 'math.mjs': MATH });
    const host = await openToolHost({
      home: testdir({}),
      workspaceRoot,
      rules: [{ action: 'deny', tool: 'delete_file', reason: 'nothing is deleted in this project' }],
    });
    onTestFinished(() => host.close());
    const model = createOpenAICompatible({ name: 'local', baseURL: server.baseURL, apiKey: 'local' }).chatModel('m');
    const result = streamText({ model, tools: aiSdkTools(host), prompt: 'Delete math.mjs.', stopWhen: stepCountIs(5) });
    expect((await result.content).some((part) => part.type === 'tool-approval-request')).toBe(false);
    expect([...server.toolResults().values()]).toEqual([
      '[denied permission_denied; retryable: no]\nPermission denied for delete_file: rule deny (tool delete_file): nothing is deleted in this project.',
    ]);
    expect(readFileSync(join(workspaceRoot, 'math.mjs'), 'utf8')).toBe(MATH);
  });
});
