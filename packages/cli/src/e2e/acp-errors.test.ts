// `clawsmith acp` when the editor misbehaves: malformed JSON-RPC, unknown methods, a prompt for a
// session it never opened, a missing key, an approval that errors, and an editor that closes
// stdin in the middle of a turn (the turn is recorded cancelled, no process is left).
import { spawn } from 'node:child_process';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { agentText, eventually, processesWith, startAcpEditor } from './acp-harness.js';
import { BIN, childEnvironment, parseJsonLines, runCli, writeScript } from './cli-harness.js';
import { startStreamingModelServer } from '@clawsmith/test-utils/model-servers';

/** `clawsmith acp` spoken to a raw line at a time, to send what a library would never send. */
function rawAcp(home: string, args: readonly string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, 'acp', ...args], {
    cwd: home,
    env: childEnvironment(home, env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  onTestFinished(() => void child.kill('SIGKILL'));
  const lines: string[] = [];
  let partial = '';
  let wake: (() => void) | undefined;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
    wake?.();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    send: (line: string) => void child.stdin.write(`${line}\n`),
    /** The next response (notifications such as session/update are skipped). */
    async next(): Promise<Record<string, unknown>> {
      for (;;) {
        while (lines.length === 0) await new Promise<void>((resolve) => (wake = resolve));
        const message = JSON.parse(lines.shift()!) as Record<string, unknown>;
        if (!('method' in message)) return message;
      }
    },
    end: () => child.stdin.end(),
    exited,
  };
}

const request = (id: number, method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method, params });

describe('clawsmith acp errors', () => {
  it('answers malformed JSON, unknown methods, unknown sessions, bad folders and modes with clear JSON-RPC errors and keeps serving', async () => {
    const home = testdir({});
    const acp = rawAcp(home, ['--provider', 'openai', '--model', 'local-model'], {
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    });
    acp.send('this is not json');
    expect(await acp.next()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    acp.send(request(1, 'initialize', { protocolVersion: 1, clientCapabilities: {} }));
    expect(await acp.next()).toMatchObject({ id: 1, result: { protocolVersion: 1 } });
    acp.send(request(2, 'clawsmith/does-not-exist', {}));
    expect(await acp.next()).toMatchObject({ id: 2, error: { code: -32601 } });
    acp.send(request(3, 'session/prompt', { sessionId: 'no-such-session', prompt: [{ type: 'text', text: 'hi' }] }));
    const unknown = await acp.next();
    expect(unknown).toMatchObject({ id: 3, error: { code: -32002, data: { sessionId: 'no-such-session' } } });
    expect((unknown.error as { message: string }).message).toMatch(/not open on this connection.*session\/new/);
    acp.send(request(4, 'session/new', { cwd: '/no/such/folder', mcpServers: [] }));
    const folder = await acp.next();
    expect(folder).toMatchObject({ id: 4, error: { code: -32602, data: { code: 'workspace_not_found' } } });
    expect((folder.error as { message: string }).message).toContain('/no/such/folder is not an existing folder');
    acp.send(request(5, 'session/load', { sessionId: 'no-such-session', cwd: home, mcpServers: [] }));
    expect(await acp.next()).toMatchObject({ id: 5, error: { code: -32002, data: { code: 'session_not_found' } } });
    acp.send(request(6, 'session/new', { cwd: testdir({}), mcpServers: [] }));
    const created = await acp.next();
    expect(created).toMatchObject({ id: 6, result: { sessionId: expect.any(String) } });
    const sessionId = (created.result as { sessionId: string }).sessionId;
    acp.send(request(7, 'session/set_mode', { sessionId, modeId: 'yolo' }));
    const mode = await acp.next();
    expect(mode).toMatchObject({ id: 7, error: { code: -32602 } });
    expect((mode.error as { message: string }).message).toContain('default, accept-edits, read-only and full-auto');
    acp.end();
    expect(await acp.exited).toBe(0);
  });

  it('asks for authentication naming the missing key, still loads history, and never calls a model', async () => {
    const home = testdir({});
    const workspace = testdir({});
    const scripted = await runCli(
      ['run', '--script', writeScript(home, [{ text: 'Scripted answer.' }]), '-w', workspace, '--json', 'earlier'],
      {
        home,
      },
    );
    expect(scripted.code).toBe(0);
    const earlier = String(parseJsonLines(scripted.stdout)[0]!.sessionId);
    const editor = startAcpEditor(['--provider', 'anthropic', '--model', 'claude-sonnet-4-5'], { home });
    onTestFinished(() => void editor.child.kill('SIGKILL'));
    const initialized = await editor.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    expect(initialized.authMethods).toEqual([
      expect.objectContaining({ id: 'environment-key', name: 'Set ANTHROPIC_API_KEY' }),
    ]);
    await expect(editor.agent.request('session/new', { cwd: home, mcpServers: [] })).rejects.toMatchObject({
      code: -32000,
      message: expect.stringContaining('set ANTHROPIC_API_KEY in the environment'),
    });
    await expect(editor.agent.request('authenticate', { methodId: 'environment-key' })).rejects.toMatchObject({
      code: -32000,
    });
    await editor.agent.request('session/load', { sessionId: earlier, cwd: workspace, mcpServers: [] });
    expect(agentText(editor.updates, earlier)).toBe('Scripted answer.');
    await expect(
      editor.agent.request('session/prompt', { sessionId: earlier, prompt: [{ type: 'text', text: 'again' }] }),
    ).rejects.toMatchObject({ code: -32000, message: expect.stringContaining('ANTHROPIC_API_KEY') });
    editor.child.stdin!.end();
    expect(await editor.exited).toBe(0);
  });

  it('denies a call whose approval the editor answers with an error, and cancels the turn when the editor closes stdin', async () => {
    const marker = `901.${process.pid}${Date.now() % 100_000}`;
    const server = await startStreamingModelServer('openai', [
      { calls: [{ name: 'run_command', arguments: { command: 'echo never' } }] },
      { text: 'It was refused.' },
      { calls: [{ name: 'run_command', arguments: { command: `sh -c 'sleep ${marker} & sleep ${marker}; wait'` } }] },
    ]);
    onTestFinished(() => server.close());
    const workspace = testdir({ 'a.txt': 'a\n' });
    const home = testdir({});
    const editor = startAcpEditor(['--provider', 'openai', '--model', 'local-model'], {
      home,
      env: { OPENAI_BASE_URL: server.baseURL },
    });
    onTestFinished(() => void editor.child.kill('SIGKILL'));
    await editor.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await editor.agent.request('session/new', { cwd: workspace, mcpServers: [] });

    editor.answers.push('error');
    expect(
      (await editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'echo' }] }))
        .stopReason,
    ).toBe('end_turn');
    const refused = editor.updates
      .map((notification) => notification.update)
      .filter((update) => update.sessionUpdate === 'tool_call_update' && update.toolCallId === 'call_0_0')
      .at(-1)!;
    expect(refused).toMatchObject({ status: 'failed' });
    // The denial is the editor's failure, never the person's choice.
    expect(JSON.stringify(refused)).toContain(
      'approval handler failed: the editor answered session/request_permission with an error',
    );

    await editor.agent.request('session/set_mode', { sessionId, modeId: 'full-auto' });
    const turn = editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'wait' }] });
    turn.catch(() => undefined);
    await editor.waitForUpdate(
      (update) =>
        update.sessionUpdate === 'tool_call_update' &&
        update.toolCallId === 'call_2_0' &&
        update.status === 'in_progress',
    );
    await eventually(() => processesWith(`sleep\0${marker}`).length === 2, 'both sleeps to start');
    editor.child.stdin!.end();
    expect(await editor.exited).toBe(0);
    // The kernel takes the sandbox's processes down with it; none outlives the agent.
    await eventually(() => processesWith(marker).length === 0, 'the sandboxed sleeps to end', 10_000);
    const points = parseJsonLines((await runCli(['checkpoints', '--session', sessionId, '--json'], { home })).stdout);
    expect(points.map((point) => point.status)).toEqual(['completed', 'cancelled']);
  }, 240_000);
});
