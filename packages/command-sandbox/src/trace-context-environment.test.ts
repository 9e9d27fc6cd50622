import { testdir } from '@clawsmith/test-utils';
import type { ToolExecutionContext } from '@clawsmith/tool-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { createCommandExecutionService, createRunCommandTool, type CommandExecutionService } from './index.js';

const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const hostParent = '00-11111111111111111111111111111111-2222222222222222-01';

function context(workspaceRoot: string, extra: Partial<ToolExecutionContext> = {}): ToolExecutionContext {
  return {
    authorized: true,
    workspaceRoot,
    sessionId: 's1',
    turnId: 't1',
    toolCallId: 'c1',
    signal: new AbortController().signal,
    ...extra,
  };
}

describe('run_command trace context', () => {
  it("gives the command its call's TRACEPARENT and TRACESTATE inside the sandbox, never the host's", async () => {
    const workspace = testdir({});
    const tool = createRunCommandTool({ environmentSource: { PATH: process.env.PATH, TRACEPARENT: hostParent } });
    const result = await tool.execute(
      { command: 'echo "parent=$TRACEPARENT state=$TRACESTATE"' },
      context(workspace, { traceContext: { traceparent, tracestate: 'clawsmith=1' } }),
    );
    expect(result.content).toContain(`parent=${traceparent} state=clawsmith=1`);
  });

  it('passes neither variable for a call without a trace context (the host value stays out)', async () => {
    const workspace = testdir({});
    const tool = createRunCommandTool({ environmentSource: { PATH: process.env.PATH, TRACEPARENT: hostParent } });
    const result = await tool.execute({ command: 'echo "parent=[$TRACEPARENT]"' }, context(workspace));
    expect(result.content).toContain('parent=[]');
  });
});

describe('background command trace context', () => {
  let commands: CommandExecutionService | undefined;
  afterEach(async () => commands?.close());

  it('starts a background command with the trace context of the call that started it', async () => {
    const workspace = testdir({});
    commands = createCommandExecutionService();
    const started = await commands.start({
      sessionId: 's',
      workspaceRoot: workspace,
      command: 'echo "parent=$TRACEPARENT"',
      traceContext: { traceparent },
    });
    const service = commands;
    await expect.poll(() => service.status('s', started.id).state, { timeout: 20_000 }).toBe('exited');
    expect(service.output('s', started.id, 0, 4096).bytes.toString()).toContain(`parent=${traceparent}`);
  });
});
