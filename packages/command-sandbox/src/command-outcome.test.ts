import { testdir } from '@clawsmith/test-utils';
import type { ToolExecutionContext, ToolExecutionResult } from '@clawsmith/tool-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { createBackgroundCommandTools, createCommandExecutionService, createRunCommandTool } from './index.js';
import { hostProcessesWith } from './__fixtures__/host-processes.js';

function context(workspaceRoot: string, signal = new AbortController().signal): ToolExecutionContext {
  return { authorized: true, workspaceRoot, sessionId: 's1', turnId: 't1', toolCallId: 'c1', signal };
}

const marker = () => `${2000 + (process.pid % 1000)}.${Date.now() % 1000}3`;

describe('run_command outcomes in the result protocol', () => {
  it('reports exit 0 as success with exitCode 0 and a duration', async () => {
    const workspace = testdir({});
    const result = (await createRunCommandTool().execute(
      { command: 'echo ok' },
      context(workspace),
    )) as ToolExecutionResult;
    expect(result).toMatchObject({ status: 'success', exitCode: 0 });
    expect(result.code).toBeUndefined();
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('reports a non-zero exit as error command_failed with the exit code, the output still the content', async () => {
    const workspace = testdir({});
    const result = (await createRunCommandTool().execute(
      { command: 'echo out; exit 3' },
      context(workspace),
    )) as ToolExecutionResult;
    expect(result).toMatchObject({ status: 'error', code: 'command_failed', exitCode: 3, retryable: false });
    expect(result.content).toContain('exit code 3');
    expect(result.content).toContain('out');
    expect(result.display?.kind).toBe('command');
  });

  it('reports a timeout as error command_timeout', async () => {
    const workspace = testdir({});
    const result = (await createRunCommandTool().execute(
      { command: `echo begun; sleep ${marker()}`, timeoutSeconds: 1 },
      context(workspace),
    )) as ToolExecutionResult;
    expect(result).toMatchObject({ status: 'error', code: 'command_timeout' });
    expect(result.content).toMatch(/Timed out after 1 s/);
    expect(result.content).toContain('begun');
  });

  it('reports a cancel as cancelled, with the whole process tree gone', async () => {
    const workspace = testdir({});
    const sleeper = marker();
    const controller = new AbortController();
    const running = createRunCommandTool().execute(
      { command: `setsid sleep ${sleeper} & sleep ${sleeper}` },
      context(workspace, controller.signal),
    ) as Promise<ToolExecutionResult>;
    await expect
      .poll(() => hostProcessesWith(`sleep ${sleeper}`).length, { timeout: 20_000 })
      .toBeGreaterThanOrEqual(2);
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({ status: 'cancelled', code: 'cancelled' });
    expect(hostProcessesWith(`sleep ${sleeper}`)).toEqual([]);
  });
});

describe('background command reports', () => {
  const service = createCommandExecutionService();
  afterEach(() => service.endSession('s1'));

  it('report a failed, a timed-out and a cancelled command as run_command does', async () => {
    const workspace = testdir({});
    const tools = Object.fromEntries(createBackgroundCommandTools(service).map((tool) => [tool.name, tool]));
    const run = async (name: string, input: unknown) =>
      (await tools[name]?.execute(input, context(workspace))) as ToolExecutionResult;
    const idOf = (result: ToolExecutionResult) => /^(cmd-[\w-]+):/.exec(result.content)?.[1] as string;

    const failing = idOf(await run('start_command', { command: 'exit 4' }));
    await expect
      .poll(async () => (await run('command_status', { id: failing })).status, { timeout: 20_000 })
      .toBe('error');
    expect(await run('command_status', { id: failing })).toMatchObject({ code: 'command_failed', exitCode: 4 });

    const passing = idOf(await run('start_command', { command: 'true' }));
    await expect.poll(async () => (await run('command_status', { id: passing })).exitCode, { timeout: 20_000 }).toBe(0);
    expect((await run('command_status', { id: passing })).status).toBe('success');

    const slow = idOf(await run('start_command', { command: `sleep ${marker()}`, timeoutSeconds: 1 }));
    await expect
      .poll(async () => (await run('command_status', { id: slow })).code, { timeout: 20_000 })
      .toBe('command_timeout');

    const sleeper = marker();
    const long = idOf(await run('start_command', { command: `setsid sleep ${sleeper} & sleep ${sleeper}` }));
    expect((await run('command_status', { id: long })).status).toBe('success');
    await expect
      .poll(() => hostProcessesWith(`sleep ${sleeper}`).length, { timeout: 20_000 })
      .toBeGreaterThanOrEqual(2);
    expect(await run('cancel_command', { id: long })).toMatchObject({ status: 'cancelled', code: 'cancelled' });
    expect(hostProcessesWith(`sleep ${sleeper}`)).toEqual([]);
  });
});
