import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signInToMcpServer } from '@clawsmith/mcp';
import { testdir } from '@clawsmith/test-utils';
import { startOAuthMcpServer } from '@clawsmith/test-utils/oauth-mcp-server';
import { describe, expect, it, onTestFinished } from 'vitest';
import { parseJsonLines, runCli, writeScript } from './cli-harness.js';
import { startChat } from './pty-chat.js';

const deploy = [
  {
    toolCalls: [
      { id: 'call_select', name: 'search_tools', arguments: { query: 'select:mcp__remote__confirm_deploy' } },
    ],
  },
  { toolCalls: [{ id: 'call_deploy', name: 'mcp__remote__confirm_deploy', arguments: { target: 'staging' } }] },
  { text: 'Deploy step finished.' },
];

async function signedInHome() {
  const server = await startOAuthMcpServer();
  onTestFinished(() => server.close());
  const home = testdir();
  writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { remote: { url: server.url } } }));
  await signInToMcpServer({
    homeDir: home,
    name: 'remote',
    openAuthorizationUrl: (url) => void fetch(url, { redirect: 'follow' }).then((page) => page.text()),
  });
  return { server, home };
}

describe('a remote server’s question (elicitation)', { timeout: 180_000 }, () => {
  it('goes to the person in chat, who answers it at the terminal', async () => {
    const { server, home } = await signedInHome();
    const script = writeScript(home, deploy);
    const chat = startChat(['--script', script, '--workspace', testdir(), '--permission-mode', 'full-auto'], home);
    await chat.waitFor('› ');
    chat.pty.write('deploy it\r');
    await chat.waitFor('? MCP server remote asks: Deploy to staging?');
    await chat.waitFor('Answer? [y]es / [n]o (decline)');
    chat.pty.write('y\r');
    await chat.waitFor('confirm (Deploy now) [y/n]: ');
    chat.pty.write('y\r');
    await chat.waitFor('Deploy step finished.');
    await chat.waitFor(/turn #1 \S+ completed/);
    chat.pty.write('/exit\r');
    expect(await chat.exited).toBe(0);
    expect(server.elicitationAnswers).toEqual([{ action: 'accept', content: { confirm: true } }]);
  });

  it('is declined with a reason in a run, where nobody can answer', async () => {
    const { server, home } = await signedInHome();
    const script = writeScript(home, deploy);
    const run = await runCli(
      ['run', '--json', '--script', script, '--workspace', testdir(), '--permission-mode', 'full-auto', 'deploy'],
      { home },
    );
    expect(run.stderr).toContain('MCP server remote asked for input; declined: nobody can answer in this session');
    const done = parseJsonLines(run.stdout).find(
      (event) => event.type === 'tool.completed' && event.toolCallId === 'call_deploy',
    );
    expect(JSON.stringify(done)).toContain('answer: decline (reason: nobody can answer in this session');
    expect(server.elicitationAnswers).toEqual([{ action: 'decline' }]);
  });
});
