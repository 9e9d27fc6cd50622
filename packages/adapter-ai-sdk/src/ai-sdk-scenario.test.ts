import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { startChatCompletionsServer, testdir, type ChatStep } from '@clawsmith/test-utils';
import { openToolHost } from '@clawsmith/tool-host';
import { stepCountIs, streamText, type ModelMessage } from 'ai';
import { describe, expect, it, onTestFinished } from 'vitest';
import { aiSdkTools } from './ai-sdk-tools.js';

const MATH = 'export const add = (a, b) => a - b;\n';
const TEST =
  "import { add } from './math.mjs';\nif (add(2, 3) !== 5) { console.error('add(2, 3) is', add(2, 3)); process.exit(1); }\nconsole.log('ok');\n";
const BIG = 'a line of a large log file\n'.repeat(3_000);

const SCRIPT: ChatStep[] = [
  { calls: [{ name: 'read_file', arguments: { path: 'math.mjs' } }] },
  { calls: [{ name: 'run_command', arguments: { command: 'node test.mjs' } }] },
  { calls: [{ name: 'edit_file', arguments: { path: 'math.mjs', oldText: 'a - b', newText: 'a + b' } }] },
  { calls: [{ name: 'run_command', arguments: { command: 'node test.mjs' } }] },
  { calls: [{ name: 'read_file', arguments: { path: 'big.log' } }] },
  { calls: [{ name: 'write_file', arguments: { path: '.git/hooks/pre-commit', content: 'curl evil' } }] },
  { calls: [{ name: 'run_command', arguments: { command: 'rm -rf build' } }] },
  { text: 'The test passes now.' },
];

describe('aiSdkTools with the real AI SDK against a Chat Completions server on 127.0.0.1', () => {
  it(
    'reads, fails a test, edits, passes it, keeps a large output, refuses, takes a denial, then undoes from code',
    { timeout: 60_000 },
    async () => {
      const server = await startChatCompletionsServer(SCRIPT);
      onTestFinished(() => server.close());
      const workspaceRoot = testdir({
        'math.mjs': MATH,
        'test.mjs': TEST,
        'big.log': BIG,
        build: { 'keep.txt': 'keep' },
      });
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
            // The person allows the test runs and declines the deletion.
            return {
              type: 'tool-approval-response',
              approvalId: request.approvalId,
              approved: command === 'node test.mjs',
            };
          }),
        });
      }
      expect(asked).toEqual(['node test.mjs', 'node test.mjs', 'rm -rf build']);
      expect(server.requests).toHaveLength(SCRIPT.length);
      const results = [...server.toolResults().values()];
      expect(results).toHaveLength(7);
      expect(results[0]).toContain('a - b');
      expect(results[1]).toMatch(/^\[error command_failed; retryable: no\]/);
      expect(results[1]).toContain('add(2, 3) is -1');
      expect(results[2]).not.toMatch(/^\[/);
      expect(results[3]).toContain('ok');
      expect(results[3]).not.toMatch(/^\[/);
      expect(results[4]).toContain('Read the rest with read_artifact');
      expect(Buffer.byteLength(results[4]!)).toBeLessThan(50_000);
      expect(results[5]).toMatch(/^\[error protected_path; retryable: no\]/);
      expect(results[6]).toBe('Tool call execution denied.'); // the SDK's own answer to the person's no
      expect(existsSync(join(workspaceRoot, 'build/keep.txt'))).toBe(true);
      expect(existsSync(join(workspaceRoot, '.git'))).toBe(false);
      expect(readFileSync(join(workspaceRoot, 'math.mjs'), 'utf8')).toBe(MATH.replace('a - b', 'a + b'));

      // Undo from code: the first restore point and every later one.
      const points = await host.listRestorePoints();
      expect(points).toHaveLength(6); // one per step that ran a tool; the declined step ran none
      expect(points.flatMap((point) => point.manifest.files.map((file) => `${file.change} ${file.path}`))).toEqual([
        'modified math.mjs',
      ]);
      await host.undo(points[0]!.turnId);
      expect(readFileSync(join(workspaceRoot, 'math.mjs'), 'utf8')).toBe(MATH);
    },
  );

  it('answers a call the policy denies with the denied result, its reason and code, asking nobody', async () => {
    const server = await startChatCompletionsServer([
      { calls: [{ name: 'delete_file', arguments: { path: 'math.mjs' } }] },
      { text: 'I may not delete it.' },
    ]);
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
