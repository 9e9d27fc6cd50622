import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli } from './cli-harness.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectServe, waitFor } from './mcp-serve-harness.js';

type Structured = { status: string; code?: string; retryable: boolean; [key: string]: unknown };
const structured = (result: { structuredContent?: unknown }) => result.structuredContent as Structured;

// Each test spawns the built binary (and through it bubblewrap); a loaded shared machine needs the room.
describe('clawsmith mcp serve over stdio', { timeout: 120_000 }, () => {
  it('lists the tools with annotations derived from their effective risk and capabilities', async () => {
    const served = await connectServe({ home: testdir(), workspace: testdir() });
    const { tools } = await served.client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('read_file')?.annotations).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(byName.get('edit_file')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: false,
    });
    expect(byName.get('run_command')?.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: true });
    expect(byName.get('clawsmith_changes')?.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.get('clawsmith_undo')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.has('search_tools')).toBe(true);
    // Deferred tools wait for search_tools.
    expect(byName.has('start_command')).toBe(false);
    for (const tool of tools) expect(tool.outputSchema).toMatchObject({ required: ['status', 'retryable'] });
  });

  it('sends tools/list_changed when search_tools activates a deferred tool, which the next list then holds', async () => {
    const served = await connectServe({ home: testdir(), workspace: testdir() });
    let changes = 0;
    served.client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changes += 1;
    });
    await served.client.listTools();
    const search = await served.call('search_tools', { query: 'select:start_command' });
    expect(search.isError).toBe(false);
    await waitFor(() => changes === 1, 'notifications/tools/list_changed');
    const { tools } = await served.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('start_command');
    // Nothing changed by a plain read: no second notification.
    await served.call('clawsmith_changes');
    await served.call('search_tools', { query: 'select:start_command' });
    expect(changes).toBe(1);
  });

  it('edits a file, lists the change with its diff, undoes it, and says a second undo is already done', async () => {
    const home = testdir();
    const workspace = testdir({ 'a.txt': 'one\n' });
    const served = await connectServe({ home, workspace });
    const edit = await served.call('edit_file', { path: 'a.txt', oldText: 'one', newText: 'two' });
    expect(edit.isError).toBe(false);
    expect(structured(edit)).toMatchObject({ status: 'success', retryable: false, changedFiles: ['a.txt'] });
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('two\n');

    const changes = await served.call('clawsmith_changes', { diffs: true });
    expect(served.text(changes)).toMatch(/#1 .*: MCP serve-test 1\.0\.0: edit_file\n {2}modified a\.txt \+1 -1/);
    expect(served.text(changes)).toContain('-one\n+two');
    const { resources } = await served.client.listResources();
    expect(resources).toHaveLength(1);
    expect(resources[0]!.uri).toBe(
      `clawsmith://restore-points/${encodeURIComponent(String(structured(edit).restorePoint))}`,
    );

    const undo = await served.call('clawsmith_undo');
    expect(undo.isError).toBe(false);
    expect(served.text(undo)).toContain('restored a.txt');
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('one\n');
    const again = await served.call('clawsmith_undo');
    expect(again.isError).toBe(true);
    expect(structured(again)).toMatchObject({ status: 'error', code: 'checkpoint_already_undone' });
    expect(served.text(again)).toContain('already undone');

    // The connection is a clawsmith session like any other.
    await served.client.close();
    const sessions = parseJsonLines((await runCli(['sessions', '--json'], { home })).stdout);
    expect(sessions).toContainEqual(
      expect.objectContaining({ title: 'MCP: serve-test 1.0.0', workspaceRoot: workspace }),
    );
  });

  it('refuses a path escape and bad arguments with their codes', async () => {
    const served = await connectServe({ home: testdir(), workspace: testdir({ 'a.txt': 'one\n' }) });
    const escape = await served.call('read_file', { path: '../../etc/passwd' });
    expect(escape.isError).toBe(true);
    expect(structured(escape)).toMatchObject({ status: 'error', code: 'path_outside_workspace', retryable: false });
    const invalid = await served.call('read_file', { nope: true });
    expect(structured(invalid)).toMatchObject({ status: 'error', code: 'invalid_arguments', retryable: true });
    const read = await served.call('read_file', { path: 'a.txt' });
    expect(read.isError).toBe(false);
    expect(served.text(read)).toContain('one');
  });

  it('denies a command when the client cannot be asked, and says why', async () => {
    const served = await connectServe({ home: testdir(), workspace: testdir() });
    const denied = await served.call('run_command', { command: 'echo hi' });
    expect(denied.isError).toBe(true);
    expect(structured(denied)).toMatchObject({ status: 'denied', code: 'permission_denied' });
    expect(served.text(denied)).toContain('does not support elicitation');
  });

  it('asks through elicitation; a hard-refused command stays refused even when allowed', async () => {
    const served = await connectServe({ home: testdir(), workspace: testdir(), approve: 'allow' });
    const echo = await served.call('run_command', { command: 'echo asked-and-allowed' });
    expect(echo.isError).toBe(false);
    expect(served.text(echo)).toContain('asked-and-allowed');
    const refused = await served.call('run_command', { command: 'sudo rm -rf /' });
    expect(refused.isError).toBe(true);
    expect(structured(refused)).toMatchObject({ code: 'command_refused' });
  });

  it('sends a 1 MB output as a resource link to its artifact, readable with resources/read and read_artifact', async () => {
    const served = await connectServe({ home: testdir(), workspace: testdir(), approve: 'allow' });
    const big = await served.call('run_command', { command: "head -c 1000000 /dev/zero | tr '\\0' a" });
    expect(big.isError).toBe(false);
    const link = big.content.find((block) => block.type === 'resource_link') as { uri: string } | undefined;
    expect(link?.uri).toMatch(/^clawsmith:\/\/artifacts\//);
    expect(served.text(big).length).toBeLessThan(60_000);
    const read = await served.client.readResource({ uri: link!.uri });
    const body = (read.contents[0] as { text: string }).text;
    expect(body.match(/a/g)?.length).toBe(1_000_000);
    const artifactId = (structured(big).artifact as { id: string }).id;
    const ranged = await served.call('read_artifact', { id: artifactId, offset: 999_990 });
    expect(ranged.isError).toBe(false);
    expect(served.text(ranged)).toContain('aaaaaaaaaa');
  });
});
