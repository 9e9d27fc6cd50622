import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startChatCompletionsServer, testdir, type ChatStep } from '@clawsmith/test-utils';
import { openToolHost } from '@clawsmith/tool-host';
import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled } from '@openai/agents';
import OpenAI from 'openai';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openAiAgentsTools } from './openai-agents-tools.js';

// Traces would go to the vendor's servers: tests talk to 127.0.0.1 only.
setTracingDisabled(true);

const MATH = 'export const add = (a, b) => a - b;\n';
const TEST =
  "import { add } from './math.mjs';\nif (add(2, 3) !== 5) { console.error('add(2, 3) is', add(2, 3)); process.exit(1); }\nconsole.log('ok');\n";
const BIG = 'a line of a large log file\n'.repeat(3_000);
// Strict mode: the model sends every field, null for those it leaves out.
const READ = { offset: null, length: null, startLine: null, endLine: null };

const SCRIPT: ChatStep[] = [
  { calls: [{ name: 'read_file', arguments: { path: 'math.mjs', ...READ } }] },
  { calls: [{ name: 'run_command', arguments: { command: 'node test.mjs', timeoutMs: null, cwd: null } }] },
  { calls: [{ name: 'edit_file', arguments: { path: 'math.mjs', oldText: 'a - b', newText: 'a + b' } }] },
  { calls: [{ name: 'run_command', arguments: { command: 'node test.mjs', timeoutMs: null, cwd: null } }] },
  { calls: [{ name: 'read_file', arguments: { path: 'big.log', ...READ } }] },
  { calls: [{ name: 'write_file', arguments: { path: '.git/hooks/pre-commit', content: 'curl evil' } }] },
  { calls: [{ name: 'run_command', arguments: { command: 'rm -rf build', timeoutMs: null, cwd: null } }] },
  { text: 'The test passes now.' },
];

function model(baseURL: string) {
  return new OpenAIChatCompletionsModel(new OpenAI({ baseURL, apiKey: 'local' }), 'local-model');
}

describe('openAiAgentsTools with the real Agents SDK against a Chat Completions server on 127.0.0.1', () => {
  it(
    'reads, fails a test, edits, passes it, keeps a large output, refuses, takes a denial, then undoes from code',
    { timeout: 60_000 },
    async () => {
      const server = await startChatCompletionsServer(SCRIPT);
      onTestFinished(() => server.close());
      const workspaceRoot = testdir({ 'math.mjs': MATH, 'test.mjs': TEST, 'big.log': BIG, build: { 'keep.txt': 'k' } });
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
          return command === 'node test.mjs';
        });
        result = await run(agent, result.state, { maxTurns: 20 });
      }
      expect(asked).toEqual([
        'run_command node test.mjs: mode accept-edits: execute needs approval',
        'run_command node test.mjs: mode accept-edits: execute needs approval',
        'run_command rm -rf build: mode accept-edits: execute needs approval',
      ]);
      expect(result.finalOutput).toBe('The test passes now.');
      expect(server.requests).toHaveLength(SCRIPT.length);
      const results = [...server.toolResults().values()];
      expect(results).toHaveLength(7);
      expect(results[0]).toContain('a - b');
      expect(results[1]).toMatch(/^\[error command_failed; retryable: no\]/);
      expect(results[1]).toContain('add(2, 3) is -1');
      expect(results[3]).toContain('ok');
      expect(results[3]).not.toMatch(/^\[/);
      expect(results[4]).toContain('Read the rest with read_artifact');
      expect(Buffer.byteLength(results[4]!)).toBeLessThan(50_000);
      expect(results[5]).toMatch(/^\[error protected_path; retryable: no\]/);
      expect(results[6]).toMatch(/not approved|rejected|denied/i);
      expect(existsSync(join(workspaceRoot, 'build/keep.txt'))).toBe(true);
      expect(readFileSync(join(workspaceRoot, 'math.mjs'), 'utf8')).toBe(MATH.replace('a - b', 'a + b'));

      const points = await host.listRestorePoints();
      expect(points.flatMap((point) => point.manifest.files.map((file) => `${file.change} ${file.path}`))).toEqual([
        'modified math.mjs',
      ]);
      await host.undo(points[0]!.turnId);
      expect(readFileSync(join(workspaceRoot, 'math.mjs'), 'utf8')).toBe(MATH);
    },
  );
});
