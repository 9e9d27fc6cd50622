// Done means for `clawsmith acp`: an editor (the client side of the official ACP library) drives
// the built binary as a child process, against a local OpenAI-format model server, through a
// read, an edit with its diff, a command allowed once and one rejected, a cancelled long command,
// a reload of the session in a new process, and /undo.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionUpdate, ToolCall, ToolCallUpdate } from '@agentclientprotocol/sdk';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { agentText, eventually, processesWith, startAcpEditor, type AcpEditor } from './acp-harness.js';
import { parseJsonLines, runCli } from './cli-harness.js';
import { startStreamingModelServer, type ModelStep } from '@clawsmith/test-utils/model-servers';

const TIMEOUT = 240_000;

function toolCallOf(editor: AcpEditor, toolCallId: string): ToolCall {
  const update = editor.updates
    .map((notification) => notification.update)
    .find((candidate) => candidate.sessionUpdate === 'tool_call' && candidate.toolCallId === toolCallId);
  if (!update) throw new Error(`no tool_call ${toolCallId}`);
  return update as ToolCall;
}

function updatesOf(editor: AcpEditor, toolCallId: string): ToolCallUpdate[] {
  return editor.updates
    .map((notification) => notification.update)
    .filter(
      (update): update is SessionUpdate & ToolCallUpdate =>
        update.sessionUpdate === 'tool_call_update' && update.toolCallId === toolCallId,
    );
}

function statuses(editor: AcpEditor, toolCallId: string): string[] {
  return [
    toolCallOf(editor, toolCallId).status ?? '',
    ...updatesOf(editor, toolCallId).map((update) => update.status ?? ''),
  ].filter((status) => status !== '');
}

async function stopEditor(editor: AcpEditor): Promise<number | null> {
  editor.child.stdin!.end();
  return editor.exited;
}

describe('clawsmith acp', () => {
  it(
    'reads, edits with a diff, asks before commands, cancels a long one, reloads in a new process and undoes',
    async () => {
      const marker = `900.${process.pid}${Date.now() % 100_000}`;
      const steps: ModelStep[] = [
        { text: 'Let me read it.', calls: [{ name: 'read_file', arguments: { path: 'greeting.txt' } }] },
        {
          calls: [{ name: 'edit_file', arguments: { path: 'greeting.txt', oldText: 'Helo', newText: 'Hello' } }],
        },
        { calls: [{ name: 'run_command', arguments: { command: 'echo allowed-once' } }] },
        { calls: [{ name: 'run_command', arguments: { command: 'echo rejected' } }] },
        { text: 'Fixed the greeting.' },
        { calls: [{ name: 'run_command', arguments: { command: `sh -c 'sleep ${marker} & sleep ${marker}; wait'` } }] },
      ];
      const server = await startStreamingModelServer('openai', steps);
      onTestFinished(() => server.close());
      const workspace = testdir({ 'greeting.txt': 'Helo, world\n' });
      const home = testdir({});
      const args = ['--provider', 'openai', '--model', 'local-model'];
      const env = { OPENAI_BASE_URL: server.baseURL, CLAWSMITH_CONTEXT_WINDOW: '64000' };

      const editor = startAcpEditor(args, { home: home, env });
      onTestFinished(() => void editor.child.kill('SIGKILL'));
      const initialized = await editor.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
      expect(initialized).toMatchObject({
        protocolVersion: 1,
        agentCapabilities: { loadSession: true, promptCapabilities: { embeddedContext: true } },
        authMethods: [],
        agentInfo: { name: 'clawsmith' },
      });
      const created = await editor.agent.request('session/new', { cwd: workspace, mcpServers: [] });
      const sessionId = created.sessionId;
      expect(created.modes?.currentModeId).toBe('default');
      expect(created.modes?.availableModes.map((mode) => mode.id)).toEqual([
        'default',
        'accept-edits',
        'read-only',
        'full-auto',
      ]);
      const commands = await editor.waitForUpdate((update) => update.sessionUpdate === 'available_commands_update');
      expect(
        commands.sessionUpdate === 'available_commands_update' && commands.availableCommands.map((c) => c.name),
      ).toEqual(['undo', 'checkpoints', 'diff']);
      // Edits run without asking from here on; commands still ask.
      await editor.agent.request('session/set_mode', { sessionId, modeId: 'accept-edits' });

      editor.answers.push('allow', 'deny');
      const first = await editor.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'Fix the typo in greeting.txt' }],
      });
      expect(first.stopReason).toBe('end_turn');
      expect(readFileSync(join(workspace, 'greeting.txt'), 'utf8')).toBe('Hello, world\n');
      expect(agentText(editor.updates, sessionId)).toBe('Let me read it.Fixed the greeting.');
      // After the turn, how full the context is: the last answer (request 5 of the server read 104
      // tokens and wrote 10) out of the window.
      const usage = editor.updates.filter((notification) => notification.update.sessionUpdate === 'usage_update');
      expect(usage.map((notification) => notification.update)).toEqual([
        { sessionUpdate: 'usage_update', used: 114, size: 64_000 },
      ]);
      expect(usage[0]!.sessionId).toBe(sessionId);

      const read = toolCallOf(editor, 'call_0_0');
      expect(read).toMatchObject({ kind: 'read', title: 'Read greeting.txt', status: 'pending' });
      expect(read.locations).toEqual([{ path: join(workspace, 'greeting.txt') }]);
      expect(statuses(editor, 'call_0_0')).toEqual(['pending', 'in_progress', 'completed']);

      expect(toolCallOf(editor, 'call_1_0')).toMatchObject({ kind: 'edit', title: 'Edit greeting.txt' });
      expect(statuses(editor, 'call_1_0')).toEqual(['pending', 'in_progress', 'completed']);
      const edited = updatesOf(editor, 'call_1_0').at(-1)!;
      expect(edited.content).toEqual([
        { type: 'diff', path: join(workspace, 'greeting.txt'), oldText: 'Helo, world\n', newText: 'Hello, world\n' },
      ]);

      // Allowed once: asked, ran, its output shown.
      expect(editor.permissionRequests.map((request) => request.toolCall.toolCallId)).toEqual(['call_2_0', 'call_3_0']);
      expect(editor.permissionRequests[0]!.options.map((option) => [option.optionId, option.kind])).toEqual([
        ['allow', 'allow_once'],
        ['allow-session', 'allow_always'],
        ['deny', 'reject_once'],
      ]);
      expect(toolCallOf(editor, 'call_2_0')).toMatchObject({ kind: 'execute', title: '$ echo allowed-once' });
      expect(statuses(editor, 'call_2_0')).toEqual(['pending', 'in_progress', 'completed']);
      expect(JSON.stringify(updatesOf(editor, 'call_2_0').at(-1)!.content)).toContain('allowed-once\\n');
      // Rejected: asked again (once is once), never started, failed with the person's denial.
      expect(statuses(editor, 'call_3_0')).toEqual(['pending', 'failed']);
      expect(JSON.stringify(updatesOf(editor, 'call_3_0').at(-1)!.content)).toContain('permission_denied');

      // A long command, allowed, then cancelled while it runs: stop reason cancelled, its processes gone.
      editor.answers.push('allow');
      const second = editor.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'Wait a while' }],
      });
      await editor.waitForUpdate(
        (update) =>
          update.sessionUpdate === 'tool_call_update' &&
          update.toolCallId === 'call_5_0' &&
          update.status === 'in_progress',
      );
      await eventually(
        () => processesWith(`sleep\0${marker}`).length === 2,
        'both sleeps of the long command to start',
      );
      await editor.agent.notify('session/cancel', { sessionId });
      expect((await second).stopReason).toBe('cancelled');
      expect(statuses(editor, 'call_5_0').at(-1)).toBe('failed');
      await eventually(() => processesWith(marker).length === 0, 'the cancelled command’s processes to end');

      expect(await stopEditor(editor)).toBe(0);

      // Every ACP session is a clawsmith session: listed, its turns recorded.
      const listed = parseJsonLines((await runCli(['sessions', '--json'], { home: home })).stdout);
      expect(listed.map((session) => session.id)).toContain(sessionId);
      const points = parseJsonLines(
        (await runCli(['checkpoints', '--session', sessionId, '--json'], { home: home })).stdout,
      );
      expect(points.map((point) => point.status)).toEqual(['completed', 'cancelled']);

      // A new process loads the session: the history comes back as updates.
      const reloaded = startAcpEditor(args, { home: home, env });
      onTestFinished(() => void reloaded.child.kill('SIGKILL'));
      await reloaded.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
      const loaded = await reloaded.agent.request('session/load', { sessionId, cwd: workspace, mcpServers: [] });
      // The mode the editor chose in the first process is the mode the session opens in.
      expect(loaded.modes?.currentModeId).toBe('accept-edits');
      const history = reloaded.updates
        .filter((notification) => notification.sessionId === sessionId)
        .map((n) => n.update);
      expect(
        history
          .filter((update) => update.sessionUpdate === 'user_message_chunk')
          .map((update) =>
            update.sessionUpdate === 'user_message_chunk' && update.content.type === 'text' ? update.content.text : '',
          ),
      ).toEqual(['Fix the typo in greeting.txt', 'Wait a while']);
      expect(agentText(reloaded.updates, sessionId)).toBe('Let me read it.Fixed the greeting.');
      expect(statuses(reloaded, 'call_1_0')).toEqual(['pending', 'in_progress', 'completed']);
      expect(updatesOf(reloaded, 'call_1_0').at(-1)!.content).toEqual(edited.content);
      expect(statuses(reloaded, 'call_3_0')).toEqual(['pending', 'failed']);

      // /undo in the reloaded session puts the file back.
      const undone = await reloaded.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: '/undo files 1' }],
      });
      expect(undone.stopReason).toBe('end_turn');
      expect(readFileSync(join(workspace, 'greeting.txt'), 'utf8')).toBe('Helo, world\n');
      expect(agentText(reloaded.updates, sessionId)).toContain('- restored greeting.txt');
      expect(await stopEditor(reloaded)).toBe(0);
    },
    TIMEOUT,
  );
});
