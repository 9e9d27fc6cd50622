import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { spawn } from '@lydell/node-pty';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { BIN, childEnvironment, parseJsonLines, runCli, writeScript } from './cli-harness.js';

const require = createRequire(import.meta.url);
const everything = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);
const LONG = 'mcp__everything__trigger-long-running-operation';

/** A home whose user file names the everything server, and a script that activates and calls its long-running tool. */
function longRunningSetup() {
  const home = testdir();
  const workspace = testdir();
  mkdirSync(home, { recursive: true });
  writeFileSync(
    join(home, 'mcp.json'),
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } }),
  );
  const script = writeScript(home, [
    { toolCalls: [{ id: 'call_search', name: 'search_tools', arguments: { query: 'long running operation' } }] },
    // Six steps of half a second: the server sends notifications/progress after each.
    { toolCalls: [{ id: 'call_long', name: LONG, arguments: { duration: 3, steps: 6 } }] },
    { text: 'The operation finished.' },
  ]);
  const args = ['run', '--script', script, '--workspace', workspace, '--permission-mode', 'full-auto', 'go'];
  return { home, workspace, args };
}

/** Runs `clawsmith` in a real pseudo-terminal and returns everything it drew. */
function runInTerminal(args: readonly string[], home: string): Promise<{ code: number; screen: string }> {
  const pty = spawn(process.execPath, [BIN, ...args], {
    name: 'xterm-256color',
    cols: 160,
    rows: 40,
    cwd: home,
    env: childEnvironment(home),
  });
  let screen = '';
  pty.onData((data) => (screen += data));
  return new Promise((resolve) => pty.onExit(({ exitCode }) => resolve({ code: exitCode, screen })));
}

// Real server processes and the built binary; a loaded shared machine needs the room.
describe('progress of a real MCP server’s long-running tool', { timeout: 120_000 }, () => {
  it('--json prints throttled tool.progress events, growing, between tool.started and tool.completed', async () => {
    const { home, args } = longRunningSetup();
    const run = await runCli([...args.slice(0, 1), '--json', ...args.slice(1)], { home });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const events = parseJsonLines(run.stdout).filter((event) => event.toolCallId === 'call_long');
    const types = events.map((event) => event.type);
    const progress = events.filter((event) => event.type === 'tool.progress');
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.length).toBeLessThan(6 + 1);
    expect(types.indexOf('tool.started')).toBeLessThan(types.indexOf('tool.progress'));
    expect(types.at(-1)).toBe('tool.completed');
    const values = progress.map((event) => Number(event.progress));
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values).size).toBe(values.length);
    expect(progress[0]).toMatchObject({ toolName: LONG, total: 6, turnId: events[0]?.turnId });
    expect(events.at(-1)).toMatchObject({ result: { status: 'success' } });
    expect(String(events.at(-1)?.output)).toContain('Long running operation completed');
  });

  it('on a terminal, the running call’s line shows its progress, redrawn in place', async () => {
    const { home, args } = longRunningSetup();
    const { code, screen } = await runInTerminal(args, home);
    expect(code).toBe(0);
    // eslint-disable-next-line no-control-regex
    const plain = screen.replace(/\u001b\[[0-9;]*m/g, '');
    // `⠋ mcp__everything__trigger-long-running-o… everything · trigger-long-… 3/6 1.6s`
    // eslint-disable-next-line no-control-regex
    const shown = [...plain.matchAll(/\r\u001b\[2K {2}\S mcp__everything__[^\r\n]* (\d)\/6 \d+\.\ds/g)].map((match) =>
      Number(match[1]),
    );
    expect(new Set(shown).size).toBeGreaterThanOrEqual(2);
    expect(plain).toMatch(/✓ success mcp__everything__trigger-long-running-o…/);
  });

  it('piped, it prints one line per call and no progress', async () => {
    const { home, args } = longRunningSetup();
    const run = await runCli(args, { home });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/\d\/6/);
    expect(run.stdout).not.toContain('\r');
    expect(run.stdout).toMatch(/✓ success mcp__everything__trigger-long-running-o…/);
  });
});
