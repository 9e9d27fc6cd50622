import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { ToolHook } from '../permissions/hooks.js';
import { openToolHost } from './open-tool-host.js';

/** A hook with a side effect a person would notice: each run appends a line to a log file. */
function loggingHook(log: string): ToolHook {
  return {
    name: 'audit-log',
    decide: (call) => {
      appendFileSync(log, `${call.toolName} ${JSON.stringify(call.input)} ${JSON.stringify(call.touches)}\n`);
      return call.toolName === 'delete_file'
        ? { decision: 'deny', reason: 'nothing is deleted here' }
        : { decision: 'allow' };
    },
  };
}

async function open(tree: Record<string, string>) {
  const workspaceRoot = testdir(tree);
  const log = join(testdir({}), 'hook.log');
  appendFileSync(log, '');
  const host = await openToolHost({
    home: testdir({}),
    workspaceRoot,
    permissionMode: 'accept-edits',
    hooks: [loggingHook(log)],
  });
  onTestFinished(() => host.close());
  return { host, workspaceRoot, log };
}

const lines = (log: string) => readFileSync(log, 'utf8').split('\n').filter(Boolean);

describe('ToolHost decide() then call()', () => {
  it('runs a PreToolUse hook with a side effect once per call, and the call runs as judged', async () => {
    const { host, workspaceRoot, log } = await open({ 'a.txt': 'one\n' });
    const input = { path: 'src/../b.txt', content: 'two\n' };
    expect(await host.decide('write_file', input)).toMatchObject({ action: 'allow', touches: { paths: ['b.txt'] } });
    // The key order of the input a framework passes again does not matter.
    expect(await host.call('write_file', { content: 'two\n', path: 'src/../b.txt' })).toMatchObject({
      status: 'success',
    });
    expect(readFileSync(join(workspaceRoot, 'b.txt'), 'utf8')).toBe('two\n');
    expect(lines(log)).toEqual([`write_file ${JSON.stringify(input)} {"paths":["b.txt"]}`]);
    // A call nobody decided before is judged on its own: it meets the hook.
    await host.call('write_file', input);
    expect(lines(log)).toHaveLength(2);
  });

  it('reuses a decided denial, and each decision is taken by one call only', async () => {
    const { host, workspaceRoot, log } = await open({ 'a.txt': 'one\n' });
    expect(await host.decide('delete_file', { path: 'a.txt' })).toMatchObject({ action: 'deny', code: 'hook_denied' });
    expect(await host.call('delete_file', { path: 'a.txt' })).toMatchObject({ code: 'hook_denied' });
    expect(readFileSync(join(workspaceRoot, 'a.txt'), 'utf8')).toBe('one\n');
    expect(lines(log)).toHaveLength(1);
    // Two decisions for two identical calls, then a third call nobody decided: it meets the hook.
    await host.decide('read_file', { path: 'a.txt' });
    await host.decide('read_file', { path: 'a.txt' });
    for (let index = 0; index < 3; index += 1)
      expect(await host.call('read_file', { path: 'a.txt' })).toMatchObject({ status: 'success' });
    expect(lines(log).map((line) => line.split(' ')[0])).toEqual([
      'delete_file',
      'read_file',
      'read_file',
      'read_file',
    ]);
  });

  it('gives a judgment made for a named tool call to that call only', async () => {
    const { host, workspaceRoot, log } = await open({ 'a.txt': 'one\n' });
    // Decided for call_1, which never ran (its person said no, say); call_2 is judged afresh.
    expect(await host.decide('write_file', { path: 'b.txt', content: 'x' }, { toolCallId: 'call_1' })).toMatchObject({
      action: 'allow',
    });
    expect(await host.call('write_file', { path: 'b.txt', content: 'x' }, { toolCallId: 'call_2' })).toMatchObject({
      status: 'success',
    });
    expect(lines(log)).toHaveLength(2);
    // call_3 decided and then run: its hook ran once.
    await host.decide('delete_file', { path: 'a.txt' }, { toolCallId: 'call_3' });
    expect(await host.call('delete_file', { path: 'a.txt' }, { toolCallId: 'call_3' })).toMatchObject({
      code: 'hook_denied',
    });
    expect(lines(log)).toHaveLength(3);
    expect(readFileSync(join(workspaceRoot, 'a.txt'), 'utf8')).toBe('one\n');
  });
});
