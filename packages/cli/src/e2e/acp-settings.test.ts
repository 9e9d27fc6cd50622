// `clawsmith acp` honours the settings of each session's workspace like `clawsmith run`: an
// untrusted project file only tightens (its deny applies, its allow and hooks do not, said once on
// stderr); once trusted, its allow rules and hooks apply, in the session's workspace.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolCallUpdate } from '@agentclientprotocol/sdk';
import { testdir } from '@clawsmith/test-utils';
import { startStreamingModelServer, type ModelStep } from '@clawsmith/test-utils/model-servers';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startAcpEditor, type AcpEditor } from './acp-harness.js';
import { runCli } from './cli-harness.js';

function lastUpdateOf(editor: AcpEditor, toolCallId: string): ToolCallUpdate | undefined {
  return editor.updates
    .map((notification) => notification.update)
    .filter((update) => update.sessionUpdate === 'tool_call_update' && update.toolCallId === toolCallId)
    .at(-1) as ToolCallUpdate | undefined;
}

describe('clawsmith acp and the settings of the session workspace', () => {
  it('applies only the deny rule of an untrusted project file, then its allow rule and hook once trusted', async () => {
    const steps: ModelStep[] = [
      {
        calls: [
          { name: 'run_command', arguments: { command: 'echo untrusted' } },
          { name: 'read_file', arguments: { path: 'secrets/key' } },
        ],
      },
      { text: 'first done' },
      { calls: [{ name: 'run_command', arguments: { command: 'echo trusted' } }] },
      { text: 'second done' },
    ];
    const server = await startStreamingModelServer('openai', steps);
    onTestFinished(() => server.close());
    const home = testdir({});
    const workspace = testdir({ 'secrets/key': 'hunter2\n', 'hooks/log.sh': '#!/bin/bash\ncat >> hooks/log\n' });
    chmodSync(join(workspace, 'hooks', 'log.sh'), 0o755);
    mkdirSync(join(workspace, '.clawsmith'));
    const settingsFile = join(workspace, '.clawsmith', 'settings.json');
    writeFileSync(
      settingsFile,
      JSON.stringify({
        permissions: { allow: ['Bash(echo:*)'], deny: ['Read(./secrets/**)'] },
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './hooks/log.sh' }] }] },
      }),
    );
    const editor = startAcpEditor(['--provider', 'openai', '--model', 'local-model'], {
      home,
      env: { OPENAI_BASE_URL: server.baseURL, CLAWSMITH_CONTEXT_WINDOW: '64000' },
    });
    onTestFinished(() => void editor.child.kill('SIGKILL'));
    await editor.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await editor.agent.request('session/new', { cwd: workspace, mcpServers: [] });

    // Untrusted: the echo asks (its allow rule does not apply; the person says no), the secret is
    // refused by the deny rule without asking, and the hook does not run.
    editor.answers.push('deny');
    const first = await editor.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'echo, then read the key' }],
    });
    expect(first.stopReason).toBe('end_turn');
    expect(editor.permissionRequests.map((request) => request.toolCall.toolCallId)).toEqual(['call_0_0']);
    expect(JSON.stringify(lastUpdateOf(editor, 'call_0_1')?.content)).toContain('permission_denied');
    expect(JSON.stringify(editor.updates)).not.toContain('hunter2');
    expect(existsSync(join(workspace, 'hooks', 'log'))).toBe(false);
    expect(editor.stderr().split(`${settingsFile} is not trusted`)).toHaveLength(2);

    // Trusted: the allow rule runs the echo without asking, and the hook runs in the workspace.
    expect((await runCli(['config', 'trust', '--workspace', workspace], { home })).code).toBe(0);
    const second = await editor.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'echo again' }],
    });
    expect(second.stopReason).toBe('end_turn');
    expect(editor.permissionRequests).toHaveLength(1);
    expect(lastUpdateOf(editor, 'call_2_0')?.status).toBe('completed');
    const hookInput = JSON.parse(readFileSync(join(workspace, 'hooks', 'log'), 'utf8')) as Record<string, unknown>;
    expect(hookInput).toMatchObject({ hook_event_name: 'PreToolUse', cwd: workspace });
    expect(editor.stderr().split(`${settingsFile} is not trusted`)).toHaveLength(2);

    editor.child.stdin!.end();
    expect(await editor.exited).toBe(0);
  }, 240_000);
});
