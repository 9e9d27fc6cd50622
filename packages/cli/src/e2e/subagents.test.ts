import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli } from './cli-harness.js';
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
});
