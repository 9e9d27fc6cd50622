import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHarness, createProbeTool } from './__fixtures__/core-harness.js';

describe('callTool', () => {
  it('runs one call as a turn with its own restore point, which undo reverts', async () => {
    const harness = await createHarness({ files: { 'a.txt': 'one\n' }, permissionMode: 'accept-edits', responses: [] });
    const edit = await harness.core.callTool({
      sessionId: harness.session.id,
      name: 'edit_file',
      arguments: { path: 'a.txt', oldText: 'one', newText: 'two' },
      caller: 'MCP client test',
    });
    expect(edit.result.status).toBe('success');
    expect(edit.changedFiles).toEqual([{ path: 'a.txt', change: 'modified', linesAdded: 1, linesRemoved: 1 }]);
    expect(readFileSync(join(harness.workspace, 'a.txt'), 'utf8')).toBe('two\n');
    const turns = await harness.core.listTurns(harness.session.id);
    expect(turns.map((turn) => [turn.prompt, turn.status])).toEqual([['MCP client test: edit_file', 'completed']]);
    const types = (await harness.events()).map((event) => event.type);
    expect(types).toEqual([
      'session.created',
      'turn.started',
      'tool.decision',
      'tool.started',
      'tool.completed',
      'turn.completed',
    ]);
    await harness.core.restore(harness.session.id, edit.turnId, 'files');
    expect(readFileSync(join(harness.workspace, 'a.txt'), 'utf8')).toBe('one\n');
  });

  it('holds the same floors as a model turn: invalid arguments, a path escape, an ask without a person', async () => {
    const harness = await createHarness({ files: { 'a.txt': 'one\n' }, permissionMode: 'accept-edits', responses: [] });
    const call = (name: string, args: unknown, extra = {}) =>
      harness.core.callTool({ sessionId: harness.session.id, name, arguments: args, ...extra });
    expect((await call('read_file', { nope: 1 })).result).toMatchObject({ status: 'error', code: 'invalid_arguments' });
    expect((await call('read_file', { path: '../outside.txt' })).result).toMatchObject({
      status: 'error',
      code: 'path_outside_workspace',
    });
    const denied = await call(
      'run_command',
      { command: 'echo hi' },
      { approvalHandler: null, unattendedReason: 'this client cannot be asked' },
    );
    expect(denied.result).toMatchObject({ status: 'denied', code: 'permission_denied' });
    expect(denied.result.content).toContain('this client cannot be asked');
    expect((await call('no_such_tool', {})).result).toMatchObject({ code: 'unknown_tool' });
  });

  it('asks the handler given for the call', async () => {
    const harness = await createHarness({ permissionMode: 'accept-edits', responses: [] });
    const asked: string[] = [];
    const outcome = await harness.core.callTool({
      sessionId: harness.session.id,
      name: 'run_command',
      arguments: { command: 'echo asked' },
      approvalHandler: async (request) => {
        asked.push(request.summary);
        return 'allow';
      },
    });
    expect(asked).toHaveLength(1);
    expect(outcome.result.status).toBe('success');
    expect(outcome.result.content).toContain('asked');
  });

  it('closes a cancelled call as cancelled', async () => {
    const harness = await createHarness({ permissionMode: 'full-auto', responses: [] });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const outcome = await harness.core.callTool({
      sessionId: harness.session.id,
      name: 'run_command',
      arguments: { command: 'sleep 20' },
      signal: controller.signal,
    });
    expect(outcome.result.status).toBe('cancelled');
    expect((await harness.core.listTurns(harness.session.id))[0]?.status).toBe('cancelled');
  });
});

describe('describeTools', () => {
  it('lists the visible tools with their resolved security, and every tool with all', async () => {
    const { tool } = createProbeTool('deep_probe');
    const harness = await createHarness({
      permissionMode: 'accept-edits',
      responses: [],
      extensions: [{ source: 'test', tools: [{ ...tool, deferred: true }] }],
    });
    const visible = await harness.core.describeTools(harness.session.id);
    const byName = new Map(visible.map((tool) => [tool.name, tool]));
    expect(byName.get('read_file')?.security.risk).toBe('read');
    expect(byName.get('run_command')?.security.risk).toBe('execute');
    expect(byName.get('read_file')?.inputSchema).toMatchObject({ type: 'object' });
    expect(byName.has('search_tools')).toBe(true);
    expect(byName.has('deep_probe')).toBe(false);
    const all = await harness.core.describeTools(harness.session.id, 'all');
    expect(all.find((entry) => entry.name === 'deep_probe')?.deferred).toBe(true);
    await harness.core.callTool({
      sessionId: harness.session.id,
      name: 'search_tools',
      arguments: { query: 'select:deep_probe' },
    });
    expect((await harness.core.describeTools(harness.session.id)).map((entry) => entry.name)).toContain('deep_probe');
  });
});
