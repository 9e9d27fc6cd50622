import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { parseJsonLines, runCli } from './cli-harness.js';
import { startStreamingModelServer } from '@clawsmith/test-utils/model-servers';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

describe('subagents from the command line', () => {
  it('a scripted delegate_task runs its child from the script, read-only, and `sessions` lists the child under its parent', async () => {
    const home = testdir();
    const workspace = testdir({ 'notes.md': 'the answer is 42\n' });
    const script = join(home, 'script.json');
    writeFileSync(
      script,
      JSON.stringify({
        responses: [
          { toolCalls: [{ id: 'd1', name: 'delegate_task', arguments: { prompt: 'find the answer' } }] },
          { text: 'The subagent found it.' },
        ],
        children: {
          d1: {
            responses: [
              {
                toolCalls: [
                  { id: 'c1', name: 'read_file', arguments: { path: 'notes.md' } },
                  { id: 'c2', name: 'write_file', arguments: { path: 'x.txt', content: 'no' } },
                ],
              },
              { text: 'notes.md says 42.' },
            ],
          },
        },
      }),
    );
    const run = await runCli(
      ['run', '--json', '--script', script, '--workspace', workspace, '--permission-mode', 'full-auto', 'ask a helper'],
      { home },
    );
    expect(run.code).toBe(0);
    const events = parseJsonLines(run.stdout);
    const delegated = events.find((event) => event.type === 'tool.completed' && event.toolName === 'delegate_task')!;
    expect(delegated.result).toMatchObject({ status: 'success' });
    const answer = JSON.parse(String(delegated.output)) as { summary: string; childSessionId: string };
    expect(answer.summary).toBe('notes.md says 42.');

    const listed = await runCli(['sessions'], { home });
    const parentId = events[0]!.sessionId as string;
    expect(listed.stdout).toContain(parentId);
    expect(listed.stdout).toMatch(new RegExp(`↳ ${answer.childSessionId} {2}task completed {2}find the answer`));
    // The child is listed under its parent only, not as a session of its own.
    expect(listed.stdout.split(answer.childSessionId)).toHaveLength(2);
    const json = parseJsonLines((await runCli(['sessions', '--json'], { home })).stdout);
    expect(json.find((session) => session.id === answer.childSessionId)).toMatchObject({
      delegatedBy: { sessionId: parentId, toolCallId: 'd1', kind: 'task', status: 'completed' },
    });
    // Its write was denied: read-only whatever the parent's mode.
    expect(existsSync(join(workspace, 'x.txt'))).toBe(false);
  });

  it('--subagent-model and --subagent-max-steps reach the child: its requests name its model, it stops at its limit and says so', async () => {
    const server = await startStreamingModelServer(
      'openai',
      [{ calls: [{ name: 'delegate_task', arguments: { prompt: 'look around' } }] }, { text: 'finished' }],
      {
        modelSteps: {
          'child-model': [{ calls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'a.txt holds a' }],
        },
      },
    );
    onTestFinished(() => server.close());
    const runWithSteps = async (steps: string) => {
      const home = testdir();
      const workspace = testdir({ 'a.txt': 'a\n' });
      const args = [
        'run',
        '--json',
        '--provider',
        'openai',
        '--model',
        'parent-model',
        '--subagent-model',
        'child-model',
      ];
      const run = await runCli(
        [...args, '--subagent-max-steps', steps, '--workspace', workspace, 'delegate something'],
        {
          home,
          env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test' },
        },
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const delegated = parseJsonLines(run.stdout).find(
        (event) => event.type === 'tool.completed' && event.toolName === 'delegate_task',
      )!;
      return { home, delegated, output: JSON.parse(String(delegated.output)) as Record<string, unknown> };
    };

    // One step: the child reads a.txt and is stopped before it can answer.
    const limited = await runWithSteps('1');
    expect(server.requests.map((request) => request.model)).toEqual(['parent-model', 'child-model', 'parent-model']);
    expect(limited.delegated.result).toMatchObject({ status: 'error', code: 'subagent_step_limit' });
    expect(limited.output).toMatchObject({ status: 'step_limit', steps: 1 });
    // The parent's model is shown the child's step limit in the tool result.
    expect(JSON.stringify(server.requests[2]!.messages)).toContain('step_limit');
    const sessions = await runCli(['sessions'], { home: limited.home });
    expect(sessions.stdout).toMatch(
      new RegExp(`↳ ${String(limited.output.childSessionId)} {2}task step_limit {2}look around`),
    );

    // Two steps are enough for the same child to answer.
    server.requests.length = 0;
    const enough = await runWithSteps('2');
    expect(server.requests.map((request) => request.model)).toEqual([
      'parent-model',
      'child-model',
      'child-model',
      'parent-model',
    ]);
    expect(enough.delegated.result).toMatchObject({ status: 'success' });
    expect(enough.output).toMatchObject({ status: 'completed', steps: 2, summary: 'a.txt holds a' });
  });

  it('a --subagent-model the provider does not know is refused by the provider, like --model: the delegating call gets its code', async () => {
    const server = await startStreamingModelServer(
      'openai',
      [{ calls: [{ name: 'delegate_task', arguments: { prompt: 'look around' } }] }, { text: 'finished' }],
      { unknownModels: ['no-such-model'] },
    );
    onTestFinished(() => server.close());
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test' };
    const workspace = testdir({ 'a.txt': 'a\n' });
    const parent = await runCli(
      ['run', '--provider', 'openai', '--model', 'no-such-model', '--workspace', workspace, 'hello'],
      { home: testdir(), env },
    );
    expect(parent.code).toBe(1);
    expect(parent.stderr).toContain('[provider_bad_request]');

    const run = await runCli(
      [
        'run',
        '--json',
        '--provider',
        'openai',
        '--model',
        'parent-model',
        '--subagent-model',
        'no-such-model',
        '--workspace',
        workspace,
        'delegate something',
      ],
      { home: testdir(), env },
    );
    expect(run.code).toBe(0);
    const delegated = parseJsonLines(run.stdout).find(
      (event) => event.type === 'tool.completed' && event.toolName === 'delegate_task',
    )!;
    expect(delegated.result).toMatchObject({ status: 'error', code: 'provider_bad_request' });
    expect(String(delegated.output)).toContain('no-such-model');
    expect(parseJsonLines(run.stdout).at(-1)).toMatchObject({ type: 'turn.completed', status: 'completed' });
  });

  it('refuses subagent options that cannot work in run, chat and web, before anything runs', async () => {
    const home = testdir();
    const workspace = testdir();
    const script = join(home, 'script.json');
    writeFileSync(script, JSON.stringify({ responses: [{ text: 'hi' }] }));
    const withScript = await runCli(
      ['run', '--script', script, '--subagent-model', 'x', '--workspace', workspace, 'hello'],
      { home },
    );
    expect(withScript.code).toBe(2);
    expect(withScript.stderr).toContain('with --script, script the subagents in the script\'s "children" instead');
    expect(withScript.stderr).toContain('[invalid_subagent_option]');
    for (const steps of ['0', '1001', '2.5', 'ten', '-3']) {
      const refused = await runCli(
        ['run', '--script', script, '--subagent-max-steps', steps, '--workspace', workspace, 'hello'],
        { home },
      );
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(
        `--subagent-max-steps takes a whole number from 1 to 1000, not "${steps}". [invalid_subagent_option]`,
      );
    }
    const blank = await runCli(
      ['run', '--provider', 'openai', '--model', 'm', '--subagent-model', ' ', '--workspace', workspace, 'hello'],
      { home, env: { OPENAI_API_KEY: 'test' } },
    );
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain('--subagent-model needs a model name of --provider openai');
    const chat = await runCli(['chat', '--script', script, '--subagent-max-steps', '0', '--workspace', workspace], {
      home,
      input: '/exit\n',
    });
    expect(chat.code).toBe(2);
    expect(chat.stderr).toContain('[invalid_subagent_option]');
    const web = await runCli(['web', '--port', '0', '--subagent-max-steps', '0'], { home });
    expect(web.code).toBe(2);
    expect(web.stderr).toContain('[invalid_subagent_option]');
    expect(existsSync(join(home, 'clawsmith.db'))).toBe(false);
  });

  it('documents the subagent options in the help of run, chat and web', async () => {
    for (const command of ['run', 'chat', 'web']) {
      const help = await runCli([command, '--help'], { home: testdir() });
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('--subagent-model <name>');
      expect(help.stdout).toContain('--subagent-max-steps <n>');
    }
  });
});
