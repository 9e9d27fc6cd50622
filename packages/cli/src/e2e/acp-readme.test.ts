// The Zed entry the READMEs give for `clawsmith acp`, launched exactly as written (with
// `clawsmith` being the built binary and the model server a local one), driven by the client side
// of the official ACP library as the editor would.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { agentText, startAcpEditor } from './acp-harness.js';
import { startStreamingModelServer } from '@clawsmith/test-utils/model-servers';

interface ZedEntry {
  readonly type: string;
  readonly command: string;
  readonly args: string[];
  readonly env: Record<string, string>;
}

/** The `agent_servers` entry of the first json block after `heading` in a README. */
function zedEntry(readme: string, heading: string): ZedEntry {
  const text = readFileSync(fileURLToPath(new URL(readme, import.meta.url)), 'utf8');
  const at = text.indexOf(heading);
  if (at === -1) throw new Error(`${readme} has no ${heading}`);
  const block = /```json\n([\s\S]*?)```/.exec(text.slice(at))?.[1];
  if (!block) throw new Error(`${readme}: no json block after ${heading}`);
  return (JSON.parse(block) as { agent_servers: { clawsmith: ZedEntry } }).agent_servers.clawsmith;
}

describe('the README’s Zed agent_servers entry', { timeout: 120_000 }, () => {
  it('launches clawsmith acp as Zed would, and a session lists, prompts and answers', async () => {
    const entry = zedEntry('../../README.md', '## Editors: `clawsmith acp`');
    expect(zedEntry('../../../../README.md', '## Use clawsmith as the agent in your editor (ACP)')).toEqual(entry);
    expect(entry.type).toBe('custom');
    expect(entry.command).toBe('clawsmith');
    const server = await startStreamingModelServer('openai', [{ text: 'Hello from clawsmith.' }]);
    onTestFinished(() => server.close());
    const workspace = testdir({ 'notes.txt': 'hi\n' });
    const editor = startAcpEditor(entry.args.slice(1), {
      home: testdir({}),
      // The entry's env as written (the key reaches only the local server), plus where that server is.
      env: { ...entry.env, OPENAI_BASE_URL: server.baseURL },
    });
    expect(entry.args[0]).toBe('acp');
    onTestFinished(() => void editor.child.kill('SIGKILL'));
    const initialized = await editor.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    expect(initialized.authMethods).toEqual([]);
    const { sessionId } = await editor.agent.request('session/new', { cwd: workspace, mcpServers: [] });
    const listed = await editor.agent.request('session/list', { cwd: workspace });
    expect(listed.sessions.map((session) => [session.sessionId, session.cwd])).toEqual([[sessionId, workspace]]);
    const answer = await editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] });
    expect(answer.stopReason).toBe('end_turn');
    expect(agentText(editor.updates, sessionId)).toBe('Hello from clawsmith.');
    expect((server.requests[0] as { model: string }).model).toBe('gpt-4.1');
    editor.child.stdin!.end();
    expect(await editor.exited).toBe(0);
  });
});
