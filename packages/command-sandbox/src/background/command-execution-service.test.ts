import { createHash } from 'node:crypto';
import { testdir } from '@clawsmith/test-utils';
import type {
  AppendableArtifact,
  ArtifactWriter,
  ToolExecutionContext,
  ToolExecutionResult,
} from '@clawsmith/tool-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { createBackgroundCommandTools, createCommandExecutionService, type CommandExecutionService } from '../index.js';
import { hostProcessesWith } from '../__fixtures__/host-processes.js';

function appendableArtifacts(): ArtifactWriter & { bodies: Buffer[] } {
  const bodies: Buffer[] = [];
  return {
    bodies,
    async write() {
      throw new Error('background commands append');
    },
    async openAppendable(): Promise<AppendableArtifact> {
      const index = bodies.push(Buffer.alloc(0)) - 1;
      const reference = (sha256?: string) => ({
        id: `log-${index}`,
        mediaType: 'text/plain; charset=utf-8',
        byteLength: bodies[index]?.length ?? 0,
        lineCount: (bodies[index]?.toString().split('\n').length ?? 1) - 1,
        ...(sha256 ? { sha256 } : {}),
      });
      return {
        reference: () => reference(),
        async append(chunk) {
          bodies[index] = Buffer.concat([bodies[index] as Buffer, Buffer.from(chunk)]);
        },
        async close() {
          return reference(
            createHash('sha256')
              .update(bodies[index] as Buffer)
              .digest('hex'),
          );
        },
      };
    },
  };
}

const services: CommandExecutionService[] = [];
function service(options: Parameters<typeof createCommandExecutionService>[0] = {}): CommandExecutionService {
  const created = createCommandExecutionService(options);
  services.push(created);
  return created;
}

afterEach(async () => {
  await Promise.all(services.splice(0).map((created) => created.close()));
});

function context(
  workspaceRoot: string,
  sessionId = 'session-a',
  extra: Partial<ToolExecutionContext> = {},
): ToolExecutionContext {
  return {
    authorized: true,
    workspaceRoot,
    sessionId,
    turnId: 't',
    toolCallId: 'c',
    signal: new AbortController().signal,
    ...extra,
  };
}

async function outputOf(commands: CommandExecutionService, sessionId: string, id: string): Promise<string> {
  return commands.output(sessionId, id, 0, 1_000_000).bytes.toString('utf8');
}

describe('createCommandExecutionService', () => {
  it('runs bash on a terminal: input and resize with the takeover token, refused without it', async () => {
    const workspace = testdir({});
    const commands = service();
    const started = await commands.start({
      sessionId: 's',
      workspaceRoot: workspace,
      command: 'bash',
      pty: true,
      columns: 80,
      rows: 24,
    });
    expect(started.pty).toBe(true);
    expect(started.takeoverToken).toMatch(/^[0-9a-f]{48}$/);
    commands.input('s', started.id, 'echo "sum=$((6*7))"\r', started.takeoverToken);
    await expect.poll(() => outputOf(commands, 's', started.id), { timeout: 20_000 }).toContain('sum=42');
    commands.resize('s', started.id, 100, 40, started.takeoverToken);
    commands.input('s', started.id, 'stty size; tput cols\r', started.takeoverToken);
    await expect.poll(() => outputOf(commands, 's', started.id), { timeout: 20_000 }).toMatch(/40 100\r?\n100/);
    expect(() => commands.input('s', started.id, 'echo hijack\r')).toThrow(
      expect.objectContaining({ code: 'takeover_required' }),
    );
    expect(() => commands.input('s', started.id, 'echo hijack\r', 'f'.repeat(48))).toThrow(
      expect.objectContaining({ code: 'takeover_required' }),
    );
    expect(() => commands.resize('s', started.id, 10, 10)).toThrow(
      expect.objectContaining({ code: 'takeover_required' }),
    );
    const cancelled = await commands.cancel('s', started.id);
    expect(cancelled.state).toBe('cancelled');
    expect(await outputOf(commands, 's', started.id)).not.toContain('hijack');
  });

  it('writes to a pipe command without a token and reads output by offset', async () => {
    const workspace = testdir({});
    const commands = service();
    const started = await commands.start({ sessionId: 's', workspaceRoot: workspace, command: 'cat' });
    expect(started.takeoverToken).toBeUndefined();
    commands.input('s', started.id, 'first line\nsecond line\n');
    await expect.poll(() => outputOf(commands, 's', started.id), { timeout: 20_000 }).toBe('first line\nsecond line\n');
    const head = commands.output('s', started.id, 0, 5);
    expect(head).toMatchObject({ offset: 0, nextOffset: 5, ended: false, state: 'running' });
    expect(head.bytes.toString()).toBe('first');
    expect(commands.output('s', started.id, head.nextOffset, 100).bytes.toString()).toBe(' line\nsecond line\n');
    expect(() => commands.resize('s', started.id, 80, 24)).toThrow(expect.objectContaining({ code: 'not_a_terminal' }));
    await commands.cancel('s', started.id);
    expect(commands.output('s', started.id, 23, 100)).toMatchObject({ ended: true, state: 'cancelled' });
    expect(() => commands.input('s', started.id, 'late\n')).toThrow(
      expect.objectContaining({ code: 'command_not_running' }),
    );
  });

  it('appends the log to an artifact and closes it when the command ends', async () => {
    const workspace = testdir({});
    const artifacts = appendableArtifacts();
    const commands = service();
    const started = await commands.start({
      sessionId: 's',
      workspaceRoot: workspace,
      command: 'echo one; echo two; exit 4',
      artifacts,
    });
    await expect.poll(() => commands.status('s', started.id).state, { timeout: 20_000 }).toBe('exited');
    const status = commands.status('s', started.id);
    expect(status.exitCode).toBe(4);
    expect(status.artifact).toMatchObject({
      id: 'log-0',
      byteLength: 8,
      sha256: createHash('sha256').update('one\ntwo\n').digest('hex'),
    });
    expect(artifacts.bodies[0]?.toString()).toBe('one\ntwo\n');
  });

  it('says the log artifact is incomplete, and why, when its store fails part way', async () => {
    const workspace = testdir({});
    const failing = (failOn: 'append' | 'close'): ArtifactWriter & { stored: Buffer[] } => {
      const stored: Buffer[] = [];
      return {
        stored,
        async write() {
          throw new Error('background commands append');
        },
        async openAppendable(): Promise<AppendableArtifact> {
          const reference = () => ({
            id: `log-${failOn}`,
            mediaType: 'text/plain; charset=utf-8',
            byteLength: Buffer.concat(stored).length,
            lineCount: 0,
          });
          return {
            reference,
            async append(chunk) {
              if (failOn === 'append' && stored.length > 0) throw new Error('ENOSPC: no space left on device');
              stored.push(Buffer.from(chunk));
            },
            async close() {
              throw new Error('database is locked');
            },
          };
        },
      };
    };
    const tools = Object.fromEntries(createBackgroundCommandTools(service()).map((tool) => [tool.name, tool]));
    for (const failOn of ['append', 'close'] as const) {
      const artifacts = failing(failOn);
      const run = async (name: string, input: unknown) =>
        (await tools[name]?.execute(input, context(workspace, 'session-a', { artifacts }))) as ToolExecutionResult;
      const started = await run('start_command', {
        command: 'echo first; sleep 0.3; echo second; sleep 0.3; echo third',
      });
      const id = /^(cmd-[\w-]+):/.exec(started.content)?.[1] as string;
      await expect
        .poll(async () => (await run('command_status', { id })).content, { timeout: 20_000 })
        .toMatch(/exited/);
      const status = (await run('command_status', { id })).content;
      expect(status).toContain(`Log artifact: log-${failOn} is INCOMPLETE`);
      expect(status).toContain(failOn === 'append' ? 'ENOSPC: no space left on device' : 'sealing it failed');
      expect(status).not.toMatch(/, complete\)/);
      // Memory still has the whole output.
      expect((await run('command_output', { id, offset: 0 })).content).toContain('third');
    }
  });

  it('caps live commands per session at 16 with a clear refusal, and ending the session kills them all', async () => {
    const workspace = testdir({});
    const commands = service();
    const marker = `${6000 + (process.pid % 1000)}.${Date.now() % 1000}3`;
    for (let index = 0; index < 16; index += 1)
      await commands.start({ sessionId: 'busy', workspaceRoot: workspace, command: `sleep ${marker}` });
    await expect(
      commands.start({ sessionId: 'busy', workspaceRoot: workspace, command: 'true' }),
    ).rejects.toMatchObject({ code: 'command_limit_reached', retryable: true });
    const other = await commands.start({ sessionId: 'other', workspaceRoot: workspace, command: 'true' });
    expect(() => commands.status('busy', other.id)).toThrow(expect.objectContaining({ code: 'command_not_found' }));
    await expect
      .poll(() => hostProcessesWith(`sleep ${marker}`).length, { timeout: 20_000 })
      .toBeGreaterThanOrEqual(16);
    expect(await commands.endSession('busy')).toBe(16);
    expect(hostProcessesWith(`sleep ${marker}`)).toEqual([]);
    expect(commands.list('busy')).toEqual([]);
  });

  it('holds the cap when starts arrive at the same time', async () => {
    const workspace = testdir({});
    const commands = service({ maxLiveCommandsPerSession: 2 });
    const results = await Promise.allSettled(
      [1, 2, 3, 4].map(() => commands.start({ sessionId: 's', workspaceRoot: workspace, command: 'sleep 30' })),
    );
    expect(results.filter((entry) => entry.status === 'fulfilled')).toHaveLength(2);
    expect(
      results
        .filter((entry) => entry.status === 'rejected')
        .map((entry) => (entry as PromiseRejectedResult).reason.code),
    ).toEqual(['command_limit_reached', 'command_limit_reached']);
  });

  it('kills a setsid child on cancel', async () => {
    const workspace = testdir({});
    const commands = service();
    const marker = `${7000 + (process.pid % 1000)}.${Date.now() % 1000}1`;
    const started = await commands.start({
      sessionId: 's',
      workspaceRoot: workspace,
      command: `setsid sleep ${marker} & sleep ${marker}`,
    });
    await expect.poll(() => hostProcessesWith(`sleep ${marker}`).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    await commands.cancel('s', started.id);
    expect(hostProcessesWith(`sleep ${marker}`)).toEqual([]);
  });

  it('applies the same refusal and refuses new commands once closed', async () => {
    const workspace = testdir({});
    const commands = service();
    await expect(
      commands.start({ sessionId: 's', workspaceRoot: workspace, command: 'nohup sudo id' }),
    ).rejects.toMatchObject({ code: 'command_refused', rule: 'privilege_escalation' });
    await commands.close();
    await expect(commands.start({ sessionId: 's', workspaceRoot: workspace, command: 'true' })).rejects.toMatchObject({
      code: 'service_closed',
    });
  });
});

describe('createBackgroundCommandTools', () => {
  it('offers the eight tools with their risks', () => {
    const tools = createBackgroundCommandTools(service());
    expect(tools.map((tool) => [tool.name, tool.risk, tool.concurrencySafe])).toEqual([
      ['start_command', 'execute', false],
      ['list_commands', 'read', true],
      ['command_terminal_capabilities', 'read', true],
      ['command_status', 'read', true],
      ['command_output', 'read', true],
      ['command_input', 'execute', false],
      ['resize_command_pty', 'execute', false],
      ['cancel_command', 'execute', false],
    ]);
  });

  it('drives a terminal command through the tools, and refuses input without the token', async () => {
    const workspace = testdir({});
    const tools = Object.fromEntries(createBackgroundCommandTools(service()).map((tool) => [tool.name, tool]));
    const run = async (name: string, input: unknown, extra: Partial<ToolExecutionContext> = {}) =>
      (await tools[name]?.execute(input, context(workspace, 'session-a', extra))) as ToolExecutionResult;
    expect(JSON.parse((await run('command_terminal_capabilities', {})).content)).toEqual({
      pty: true,
      resize: true,
      ansi: true,
      takeover: true,
      library: '@lydell/node-pty',
    });
    const started = await run('start_command', { command: 'bash', pty: true });
    const id = /^(cmd-[\w-]+):/.exec(started.content)?.[1] as string;
    const token = /Takeover token[^:]*: ([0-9a-f]+)/.exec(started.content)?.[1];
    expect(token).toBeDefined();
    await expect(run('command_input', { id, data: 'echo no\r' })).rejects.toMatchObject({ code: 'takeover_required' });
    await expect(run('command_input', { id, data: 'echo no\r', token }, { authorized: false })).rejects.toMatchObject({
      code: 'unauthorized',
    });
    await run('command_input', { id, data: 'echo "tool=$((2+3))"\r', token });
    await run('resize_command_pty', { id, columns: 90, rows: 30, token });
    await expect
      .poll(async () => (await run('command_output', { id, offset: 0 })).content, { timeout: 20_000 })
      .toContain('tool=5');
    expect((await run('list_commands', {})).content).toContain(`${id}: running · terminal`);
    expect(
      ((await tools.list_commands?.execute({}, context(workspace, 'session-b'))) as ToolExecutionResult).content,
    ).toBe('No background commands in this session.');
    const cancelled = await run('cancel_command', { id });
    expect(cancelled.content).toMatch(/cancelled/);
    expect((await run('command_status', { id })).content).toMatch(/cancelled/);
  });
});
