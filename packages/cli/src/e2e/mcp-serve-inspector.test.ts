import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { BIN, childEnvironment, parseJsonLines, runCli } from './cli-harness.js';

const require = createRequire(import.meta.url);
// The MCP Inspector's command-line mode: a client nobody here wrote. Its own package, the one the
// whole Inspector runs for `--cli` (the web client and proxy it also installs are not used here).
const inspector = join(dirname(require.resolve('@modelcontextprotocol/inspector-cli/package.json')), 'build/cli.js');

function runInspector(
  home: string,
  workspace: string,
  args: readonly string[],
): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [inspector, '--cli', process.execPath, BIN, 'mcp', 'serve', '--workspace', workspace, ...args],
      { env: childEnvironment(home), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

describe('clawsmith mcp serve with the MCP Inspector (--cli)', { timeout: 120_000 }, () => {
  it('lists the tools with annotations, and an edit it makes is undone by clawsmith undo', async () => {
    const home = testdir();
    const workspace = testdir({ 'a.txt': 'one\n' });
    const listed = await runInspector(home, workspace, ['--method', 'tools/list']);
    expect(listed.code).toBe(0);
    const { tools } = JSON.parse(listed.stdout) as { tools: { name: string; annotations: Record<string, boolean> }[] };
    expect(tools.find((tool) => tool.name === 'delete_file')?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    });

    const edited = await runInspector(home, workspace, [
      '--method',
      'tools/call',
      '--tool-name',
      'edit_file',
      '--tool-arg',
      'path=a.txt',
      'oldText=one',
      'newText=two',
    ]);
    expect(edited.code).toBe(0);
    expect(JSON.parse(edited.stdout)).toMatchObject({
      isError: false,
      structuredContent: { status: 'success', changedFiles: ['a.txt'] },
    });
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('two\n');

    const sessions = parseJsonLines((await runCli(['sessions', '--json'], { home })).stdout);
    // Each inspector run is one connection, so one session; the newest made the edit.
    expect(sessions.map((session) => session.title)).toEqual(['MCP: inspector-cli 0.5.1', 'MCP: inspector-cli 0.5.1']);
    const undo = await runCli(['undo', 'files', 'last', '--session', String(sessions[0]!.id)], { home });
    expect(undo.code).toBe(0);
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('one\n');
  });
});
