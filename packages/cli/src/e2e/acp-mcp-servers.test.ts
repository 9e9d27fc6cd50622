// The MCP servers an editor configures (ACP `mcpServers` of session/new and session/load) become
// deferred tools of that session alone: found with search_tools, called through the normal
// lifecycle, absent from the connection's other sessions, and their processes gone when the
// editor goes away. A real stdio server (@modelcontextprotocol/server-everything) and the built binary.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { SessionUpdate, ToolCallUpdate } from '@agentclientprotocol/sdk';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { agentText, eventually, processesWith, startAcpEditor, type AcpEditor } from './acp-harness.js';
import { startStreamingModelServer, type ModelStep } from '@clawsmith/test-utils/model-servers';

const require = createRequire(import.meta.url);
const everything = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);

function lastUpdateOf(editor: AcpEditor, sessionId: string, toolCallId: string): ToolCallUpdate {
  const updates = editor.updates
    .filter((notification) => notification.sessionId === sessionId)
    .map((notification) => notification.update)
    .filter(
      (update): update is SessionUpdate & ToolCallUpdate =>
        update.sessionUpdate === 'tool_call_update' && update.toolCallId === toolCallId,
    );
  const last = updates.at(-1);
  if (!last) throw new Error(`no update of ${toolCallId} in ${sessionId}`);
  return last;
}

describe('clawsmith acp with the editor’s MCP servers', () => {
  it('starts them for their session only, as deferred tools, and ends them with the connection', async () => {
    // Each conversation gets the same script: activate the echo tool, call it, answer.
    const steps: ModelStep[] = [
      { calls: [{ name: 'search_tools', arguments: { query: 'select:mcp__editor-tools__echo' } }] },
      { calls: [{ name: 'mcp__editor-tools__echo', arguments: { message: 'from the editor' } }] },
      { text: 'Echoed.' },
      // A conversation already three answers long (loaded with the servers) goes on here.
      { calls: [{ name: 'search_tools', arguments: { query: 'select:mcp__editor-tools__echo' } }] },
      { calls: [{ name: 'mcp__editor-tools__echo', arguments: { message: 'after the load' } }] },
      { text: 'Echoed again.' },
    ];
    const server = await startStreamingModelServer('openai', steps);
    onTestFinished(() => server.close());
    const workspace = testdir({ 'notes.txt': 'hello\n' });
    const home = testdir({});
    const editor = startAcpEditor(['--provider', 'openai', '--model', 'local-model'], {
      home,
      env: { OPENAI_BASE_URL: server.baseURL },
    });
    onTestFinished(() => void editor.child.kill('SIGKILL'));
    await editor.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });

    const withServers = await editor.agent.request('session/new', {
      cwd: workspace,
      mcpServers: [
        {
          name: 'editor-tools',
          command: process.execPath,
          args: [everything, 'stdio'],
          env: [{ name: 'EDITOR_GIVEN', value: '1' }],
        },
      ],
    });
    const sessionId = withServers.sessionId;
    const editorServers = [
      {
        name: 'editor-tools',
        command: process.execPath,
        args: [everything, 'stdio'],
        env: [{ name: 'EDITOR_GIVEN', value: '1' }],
      },
    ];
    // Started for this session (it was asked for its tools), before any prompt.
    expect(processesWith(everything).length).toBeGreaterThan(0);
    // An MCP tool runs code elsewhere: it asks first, like any command.
    editor.answers.push('allow');
    const turn = await editor.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'Echo something' }],
    });
    expect(turn.stopReason).toBe('end_turn');
    expect(editor.permissionRequests.map((request) => request.toolCall.toolCallId)).toEqual(['call_1_0']);
    expect(lastUpdateOf(editor, sessionId, 'call_0_0').status).toBe('completed');
    const echoed = lastUpdateOf(editor, sessionId, 'call_1_0');
    expect(echoed.status).toBe('completed');
    expect(JSON.stringify(echoed.content)).toContain('Echo: from the editor');
    expect(agentText(editor.updates, sessionId)).toBe('Echoed.');

    // Another session of the same connection, without servers: the tool is not there.
    const plain = await editor.agent.request('session/new', { cwd: workspace, mcpServers: [] });
    const other = await editor.agent.request('session/prompt', {
      sessionId: plain.sessionId,
      prompt: [{ type: 'text', text: 'Echo something' }],
    });
    expect(other.stopReason).toBe('end_turn');
    const missing = lastUpdateOf(editor, plain.sessionId, 'call_1_0');
    expect(missing.status).toBe('failed');
    expect(JSON.stringify(missing.content)).toContain('unknown_tool');
    expect(editor.permissionRequests).toHaveLength(1);

    // Loaded again with the servers, the same session has the tool from then on.
    await editor.agent.request('session/load', {
      sessionId: plain.sessionId,
      cwd: workspace,
      mcpServers: editorServers,
    });
    editor.answers.push('allow');
    const loadedTurn = await editor.agent.request('session/prompt', {
      sessionId: plain.sessionId,
      prompt: [{ type: 'text', text: 'Now echo' }],
    });
    expect(loadedTurn.stopReason).toBe('end_turn');
    const echoedAfterLoad = lastUpdateOf(editor, plain.sessionId, 'call_4_0');
    expect(echoedAfterLoad.status).toBe('completed');
    expect(JSON.stringify(echoedAfterLoad.content)).toContain('Echo: after the load');

    // The editor goes away: the server it configured goes with the process.
    editor.child.stdin!.end();
    expect(await editor.exited).toBe(0);
    await eventually(() => processesWith(everything).length === 0, 'the editor’s MCP server to end');
    expect(editor.stderr()).not.toContain('not connected');
  }, 180_000);

  it('puts a server’s question to the person in the editor, and declines with the reason when the editor fills in no forms', async () => {
    const steps: ModelStep[] = [
      { calls: [{ name: 'search_tools', arguments: { query: 'select:mcp__asks__trigger-elicitation-request' } }] },
      { calls: [{ name: 'mcp__asks__trigger-elicitation-request', arguments: {} }] },
      { text: 'Asked.' },
    ];
    const asks = [{ name: 'asks', command: process.execPath, args: [everything, 'stdio'], env: [] }];
    const askOnce = async (clientCapabilities: Record<string, unknown>, fill: (editor: AcpEditor) => void) => {
      const server = await startStreamingModelServer('openai', steps);
      onTestFinished(() => server.close());
      const workspace = testdir({});
      const editor = startAcpEditor(['--provider', 'openai', '--model', 'local-model'], {
        home: testdir({}),
        env: { OPENAI_BASE_URL: server.baseURL },
      });
      onTestFinished(() => void editor.child.kill('SIGKILL'));
      await editor.agent.request('initialize', { protocolVersion: 1, clientCapabilities });
      const { sessionId } = (await editor.agent.request('session/new', { cwd: workspace, mcpServers: asks })) as {
        sessionId: string;
      };
      editor.answers.push('allow');
      fill(editor);
      const turn = await editor.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'Ask me' }],
      });
      expect(turn.stopReason).toBe('end_turn');
      editor.child.stdin!.end();
      expect(await editor.exited).toBe(0);
      return { editor, sessionId, result: JSON.stringify(lastUpdateOf(editor, sessionId, 'call_1_0').content) };
    };

    const filled = await askOnce({ elicitation: { form: {} } }, (editor) =>
      editor.formAnswers.push({ action: 'accept', content: { name: 'Ada Lovelace', check: true, integer: 7 } }),
    );
    expect(filled.editor.formRequests).toEqual([
      expect.objectContaining({
        sessionId: filled.sessionId,
        toolCallId: 'call_1_0',
        mode: 'form',
        message: 'The MCP server asks asks: Please provide inputs for the following fields:',
        requestedSchema: expect.objectContaining({ required: ['name'] }),
      }),
    ]);
    expect(filled.result).toContain('- Name: Ada Lovelace');
    expect(filled.result).toContain('- Favorite Integer: 7');

    const unasked = await askOnce({}, () => undefined);
    expect(unasked.editor.formRequests).toEqual([]);
    expect(unasked.result).toContain('User declined');
    expect(unasked.editor.stderr()).toContain(
      'MCP server asks asked for input; declined: asking failed (the editor does not fill in forms (it declared no elicitation.form)).',
    );
  }, 180_000);
});
