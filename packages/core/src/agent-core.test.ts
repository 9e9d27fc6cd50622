import { createCommandExecutionService } from '@clawsmith/command-sandbox';
import { describe, expect, it, onTestFinished } from 'vitest';
import { call, createHarness } from './__fixtures__/core-harness.js';

const BACKGROUND_TOOLS = [
  'start_command',
  'list_commands',
  'command_terminal_capabilities',
  'command_status',
  'command_output',
  'command_input',
  'resize_command_pty',
  'cancel_command',
];

describe('createAgentCore', () => {
  it('assembles the tool table from what is wired in: base, session, artifact and background command tools', async () => {
    const commands = createCommandExecutionService({ sandbox: 'auto' });
    onTestFinished(() => commands.close());
    const harness = await createHarness({ commands, responses: [] });
    expect(harness.core.toolNames).toEqual([
      'read_file',
      'search_files',
      'glob_files',
      'edit_file',
      'write_file',
      'rename_file',
      'delete_file',
      'run_command',
      'web_fetch',
      'todo_write',
      'todo_list',
      'read_artifact',
      ...BACKGROUND_TOOLS,
      'search_tools',
    ]);
    const bare = await createHarness({ withArtifacts: false, responses: [] });
    expect(bare.core.toolNames).not.toContain('read_artifact');
    expect(bare.core.toolNames).not.toContain('start_command');
    expect(bare.core.toolNames).not.toContain('search_tools');
  });

  it('defers the background command tools: a fresh request carries none of their schemas unless always loaded', async () => {
    const commands = createCommandExecutionService({ sandbox: 'auto' });
    onTestFinished(() => commands.close());
    const lean = await createHarness({ commands, responses: [{ text: 'hi' }] });
    await lean.core.runTurn({ sessionId: lean.session.id, prompt: 'hi' });
    const [leanRequest] = await lean.eventsOf('request.started');
    const leanNames = leanRequest!.toolNames as string[];
    expect(leanNames).toContain('search_tools');
    for (const name of BACKGROUND_TOOLS) expect(leanNames).not.toContain(name);
    const loaded = await createHarness({ commands, alwaysLoadedTools: BACKGROUND_TOOLS, responses: [{ text: 'hi' }] });
    await loaded.core.runTurn({ sessionId: loaded.session.id, prompt: 'hi' });
    const [loadedRequest] = await loaded.eventsOf('request.started');
    expect(loadedRequest!.toolNames).toEqual(expect.arrayContaining(BACKGROUND_TOOLS));
  });

  it('runs background commands across the turn and ends them when the core closes', async () => {
    const commands = createCommandExecutionService({ sandbox: 'auto' });
    onTestFinished(() => commands.close());
    const harness = await createHarness({
      commands,
      permissionMode: 'full-auto',
      responses: [
        { toolCalls: [call('find', 'search_tools', { query: 'start a dev server in the background' })] },
        { toolCalls: [call('s', 'start_command', { command: 'echo ready; sleep 30' })] },
        { text: 'started' },
      ],
    });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'start a server' });
    const [, completed] = await harness.eventsOf('tool.completed');
    expect(completed!.result).toMatchObject({ status: 'success' });
    const [running] = commands.list(harness.session.id);
    expect(running?.state).toBe('running');
    await harness.core.close();
    expect(commands.list(harness.session.id).every((command) => command.state !== 'running')).toBe(true);
  });
});
