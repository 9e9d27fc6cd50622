import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { testDatabaseEngine, testDatabaseUrl } from '@clawsmith/test-utils/postgres';
import { ClawsmithError, defineTool } from '@clawsmith/tool-protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { openToolHost, type OpenToolHostOptions } from './open-tool-host.js';

async function open(tree: Record<string, string>, options: Partial<OpenToolHostOptions> = {}) {
  const workspaceRoot = testdir(tree);
  const home = testdir({});
  const host = await openToolHost({ home, workspaceRoot, ...options });
  onTestFinished(() => host.close());
  return { host, workspaceRoot, home };
}

describe('openToolHost', () => {
  it('describes the file tools, run_command and read_artifact with JSON Schema and zod', async () => {
    const { host } = await open({});
    expect(host.toolNames).toEqual([
      'read_file',
      'search_files',
      'glob_files',
      'edit_file',
      'write_file',
      'rename_file',
      'delete_file',
      'run_command',
      'read_artifact',
    ]);
    const readFile = host.describe().find((tool) => tool.name === 'read_file')!;
    expect(readFile.inputSchema).toMatchObject({ type: 'object', required: ['path'] });
    expect(readFile.tool.inputSchema.safeParse({ path: 'a.txt' }).success).toBe(true);
    expect(readFile.security.risk).toBe('read');
  });

  it('decides by mode and rules without running anything', async () => {
    const { host, workspaceRoot } = await open(
      { 'a.txt': 'one\n' },
      { rules: [{ action: 'deny', tool: 'delete_file', reason: 'nothing is deleted here' }] },
    );
    expect(await host.decide('read_file', { path: 'a.txt' })).toMatchObject({ action: 'allow' });
    expect(await host.decide('write_file', { path: 'b.txt', content: 'x' })).toMatchObject({
      action: 'ask',
      reason: 'mode default: workspace-write needs approval',
    });
    expect(await host.decide('delete_file', { path: 'a.txt' })).toMatchObject({
      action: 'deny',
      code: 'permission_denied',
    });
    expect(await host.decide('nope', {})).toMatchObject({ action: 'deny', code: 'unknown_tool' });
    expect(await host.decide('read_file', { path: 7 })).toMatchObject({ action: 'deny', code: 'invalid_arguments' });
    expect(existsSync(join(workspaceRoot, 'b.txt'))).toBe(false);
    expect(await host.listRestorePoints()).toEqual([]);
  });

  it('closes every refusal as a result with status, code and retryable, and never throws', async () => {
    const { host, workspaceRoot } = await open({ 'a.txt': 'one\n' }, { permissionMode: 'accept-edits' });
    expect(await host.call('nope', {})).toMatchObject({ status: 'error', code: 'unknown_tool', retryable: false });
    expect(await host.call('read_file', '{"path":')).toMatchObject({ code: 'invalid_json', retryable: true });
    expect(await host.call('read_file', { path: 3 })).toMatchObject({ code: 'invalid_arguments', retryable: true });
    // A file tool's thrown refusal keeps its code.
    expect(await host.call('write_file', { path: '.git/config', content: 'x' })).toMatchObject({
      status: 'error',
      code: 'protected_path',
    });
    expect(await host.call('read_file', { path: '../outside.txt' })).toMatchObject({ code: 'path_outside_workspace' });
    // A command asks in accept-edits: nobody can be asked, so it is denied with the reason.
    const denied = await host.call('run_command', { command: 'touch made.txt' });
    expect(denied).toMatchObject({ status: 'denied', code: 'permission_denied', retryable: false });
    expect(denied.content).toContain('mode accept-edits: execute needs approval');
    expect(existsSync(join(workspaceRoot, 'made.txt'))).toBe(false);
  });

  it('keeps a tool that throws a ClawsmithError as its code and retryable', async () => {
    const flaky = defineTool({
      name: 'flaky',
      description: 'Fails retryably.',
      risk: 'read',
      capabilities: [],
      concurrencySafe: true,
      inputSchema: z.object({}),
      summarize: () => 'flaky',
      execute: () => {
        throw new ClawsmithError('upstream_busy', 'The upstream is busy; try again in a moment.', { retryable: true });
      },
    });
    const { host } = await open({}, { extraTools: [flaky] });
    expect(await host.call('flaky', {})).toMatchObject({ status: 'error', code: 'upstream_busy', retryable: true });
  });

  it('asks its approval handler for an ask, and runs an ask the caller approved', async () => {
    const asked: string[] = [];
    const { host, workspaceRoot } = await open(
      { 'a.txt': 'one\n' },
      {
        approvalHandler: async (request) => {
          asked.push(`${request.toolName}: ${request.reason}`);
          return request.summary.includes('yes.txt') ? 'allow' : 'deny';
        },
      },
    );
    expect(await host.call('write_file', { path: 'yes.txt', content: 'y' })).toMatchObject({ status: 'success' });
    const declined = await host.call('write_file', { path: 'no.txt', content: 'n' });
    expect(declined).toMatchObject({ status: 'denied', code: 'permission_denied' });
    expect(declined.content).toContain('the person declined');
    expect(await host.call('write_file', { path: 'pre.txt', content: 'p' }, { approved: true })).toMatchObject({
      status: 'success',
    });
    expect(asked).toEqual([
      'write_file: mode default: workspace-write needs approval',
      'write_file: mode default: workspace-write needs approval',
    ]);
    expect(existsSync(join(workspaceRoot, 'no.txt'))).toBe(false);
    expect(readFileSync(join(workspaceRoot, 'pre.txt'), 'utf8')).toBe('p');
  });
});

describe('the database of a tool host', () => {
  it('lives in <home>/clawsmith.db, or in the PostgreSQL database of databaseUrl with no file in the home', async () => {
    const engine = testDatabaseEngine();
    const databaseUrl = engine === 'postgres' ? await testDatabaseUrl() : undefined;
    const { host, home, workspaceRoot } = await open(
      { 'a.txt': 'one\n' },
      { permissionMode: 'accept-edits', sessionId: 'shared', ...(databaseUrl === undefined ? {} : { databaseUrl }) },
    );
    await host.call('edit_file', { path: 'a.txt', oldText: 'one', newText: 'two' });
    expect(existsSync(join(home, 'clawsmith.db'))).toBe(engine === 'sqlite');
    const [point] = await host.listRestorePoints();
    await host.close();
    // A second host on the same database sees the restore point and undoes it.
    const again = await openToolHost({
      home,
      workspaceRoot,
      sessionId: 'shared',
      ...(databaseUrl === undefined ? {} : { databaseUrl }),
    });
    onTestFinished(() => again.close());
    expect((await again.listRestorePoints()).map((each) => each.turnId)).toEqual([point!.turnId]);
    await again.undo(point!.turnId);
    expect(readFileSync(join(workspaceRoot, 'a.txt'), 'utf8')).toBe('one\n');
  });

  it('refuses a database URL that is not PostgreSQL, saying what it takes', async () => {
    await expect(
      openToolHost({ home: testdir({}), workspaceRoot: testdir({}), databaseUrl: 'mysql://localhost/x' }),
    ).rejects.toMatchObject({ code: 'invalid_database_url' });
  });
});

describe('restore points of a tool host', () => {
  it('keeps one per step, diffs a step and undoes it and every later step', async () => {
    const { host, workspaceRoot } = await open(
      { 'a.txt': 'one\n', 'b.txt': 'two\n' },
      { permissionMode: 'accept-edits' },
    );
    const first = await host.beginStep();
    await host.call('edit_file', { path: 'a.txt', oldText: 'one', newText: 'ONE' });
    await host.call('write_file', { path: 'new.txt', content: 'new\n' });
    await host.endStep();
    await host.beginStep();
    await host.call('delete_file', { path: 'b.txt' });
    await host.endStep();
    // With no step open, a call has a restore point of its own.
    await host.call('edit_file', { path: 'a.txt', oldText: 'ONE', newText: 'uno' });
    const points = await host.listRestorePoints();
    expect(points.map((point) => point.manifest.files.map((file) => `${file.change} ${file.path}`))).toEqual([
      ['modified a.txt', 'created new.txt'],
      ['deleted b.txt'],
      ['modified a.txt'],
    ]);
    expect((await host.diff(first, 'a.txt')).unifiedDiff).toContain('+ONE');
    const undone = await host.undo(first);
    expect(undone.undoneTurnIds).toHaveLength(3);
    expect(readFileSync(join(workspaceRoot, 'a.txt'), 'utf8')).toBe('one\n');
    expect(readFileSync(join(workspaceRoot, 'b.txt'), 'utf8')).toBe('two\n');
    expect(existsSync(join(workspaceRoot, 'new.txt'))).toBe(false);
  });

  it('refuses to undo over what a person changed since, and changes nothing', async () => {
    const { host, workspaceRoot } = await open({ 'a.txt': 'one\n' }, { permissionMode: 'accept-edits' });
    const step = await host.beginStep();
    await host.call('edit_file', { path: 'a.txt', oldText: 'one', newText: 'ONE' });
    await host.endStep();
    writeFileSync(join(workspaceRoot, 'a.txt'), 'the person wrote this\n');
    await expect(host.undo(step)).rejects.toMatchObject({ code: 'checkpoint_conflict' });
    expect(readFileSync(join(workspaceRoot, 'a.txt'), 'utf8')).toBe('the person wrote this\n');
  });
});
