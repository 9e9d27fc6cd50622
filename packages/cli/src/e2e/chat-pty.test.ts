import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { writeScript } from './cli-harness.js';
import { startChat } from './pty-chat.js';

describe('clawsmith chat in a pseudo-terminal', () => {
  it('streams a turn, asks for approval, takes yes, then /undo puts the file back', async () => {
    const home = testdir();
    const workspace = testdir({ 'keep.txt': 'kept\n' });
    const script = writeScript(home, [
      {
        text: 'Creating the file.',
        toolCalls: [
          { id: 'call_w', name: 'write_file', arguments: { path: 'made.txt', content: 'made by the agent\n' } },
        ],
      },
      { text: 'Created made.txt.' },
    ]);
    const chat = startChat(['--script', script, '--workspace', workspace], home);
    await chat.waitFor('› ');
    chat.pty.write('please make the file\r');
    // The approval shows the change: what the new file will start with.
    await chat.waitFor('new file made.txt: 1 line(s), 18 byte(s)');
    await chat.waitFor('+made by the agent');
    await chat.waitFor('Allow? [y]es / [n]o / [a]lways for this session');
    expect(existsSync(join(workspace, 'made.txt'))).toBe(false);
    chat.pty.write('y\r');
    await chat.waitFor('Created made.txt.');
    await chat.waitFor(/turn #1 \S+ completed/);
    expect(existsSync(join(workspace, 'made.txt'))).toBe(true);
    await chat.waitFor('› ');

    chat.pty.write('/checkpoints\r');
    await chat.waitFor('#1 ');
    chat.pty.write('/undo 1\r');
    await chat.waitFor('Undid turn');
    expect(existsSync(join(workspace, 'made.txt'))).toBe(false);
    expect(existsSync(join(workspace, 'keep.txt'))).toBe(true);
    chat.pty.write('/exit\r');
    expect(await chat.exited).toBe(0);
    // NO_COLOR: no colours, and never an OSC sequence.
    expect(chat.screen()).not.toContain('\u001b[31m');
    expect(chat.screen()).not.toContain('\u001b]');
  });

  it('a denied approval leaves the workspace as it was; Ctrl-C cancels a running command, a second Ctrl-C exits', async () => {
    const home = testdir();
    const workspace = testdir();
    const script = writeScript(home, [
      { toolCalls: [{ id: 'call_w', name: 'write_file', arguments: { path: 'no.txt', content: 'no' } }] },
      { text: 'Understood, not writing.' },
      { toolCalls: [{ id: 'call_sleep', name: 'run_command', arguments: { command: 'sleep 60' } }] },
      { text: 'never reached' },
    ]);
    const chat = startChat(['--script', script, '--workspace', workspace], home);
    await chat.waitFor('› ');
    chat.pty.write('write no.txt\r');
    await chat.waitFor('Allow?');
    chat.pty.write('n\r');
    await chat.waitFor(/denied \(permission_denied\) write_file/);
    await chat.waitFor(/turn #1 \S+ completed/);
    expect(existsSync(join(workspace, 'no.txt'))).toBe(false);

    await chat.waitFor('› ');
    chat.pty.write('sleep a while\r');
    await chat.waitFor('$ sleep 60');
    await chat.waitFor(`in ${workspace}`);
    await chat.waitFor('Allow?');
    chat.pty.write('a\r');
    await chat.waitFor('▸ run_command');
    chat.pty.write('\u0003');
    await chat.waitFor('Cancelling the turn');
    await chat.waitFor(/turn #2 \S+ cancelled/);
    chat.pty.write('\u0003');
    expect(await chat.exited).toBe(130);
  });

  it('/compact shrinks what the model is sent on demand, and says so when there is nothing left', async () => {
    const home = testdir();
    const workspace = testdir({ 'a.txt': 'alpha\n'.repeat(500), 'b.txt': 'beta\n'.repeat(500) });
    const script = writeScript(home, [
      { toolCalls: [{ id: 'call_a', name: 'read_file', arguments: { path: 'a.txt' } }] },
      { toolCalls: [{ id: 'call_b', name: 'read_file', arguments: { path: 'b.txt' } }] },
      { text: 'Read both.' },
    ]);
    const chat = startChat(['--script', script, '--workspace', workspace], home);
    await chat.waitFor('› ');
    chat.pty.write('read a and b\r');
    await chat.waitFor(/turn #1 \S+ completed/);
    await chat.waitFor('› ');
    chat.pty.write('/compact\r');
    await chat.waitFor(/context compacted \(manual\): 2 old tool result\(s\) pruned; about [\d,]+ → [\d,]+ of/);
    chat.pty.write('/compact\r');
    await chat.waitFor('Nothing to compact');
    chat.pty.write('/exit\r');
    expect(await chat.exited).toBe(0);
  });

  it('/undo alone lists what it will put back, undoes nothing on no, and the last turn on yes', async () => {
    const home = testdir();
    const workspace = testdir();
    const script = writeScript(home, [
      { toolCalls: [{ id: 'call_1', name: 'write_file', arguments: { path: 'one.txt', content: 'one\n' } }] },
      { text: 'Wrote one.' },
      { toolCalls: [{ id: 'call_2', name: 'write_file', arguments: { path: 'two.txt', content: 'two\n' } }] },
      { text: 'Wrote two.' },
    ]);
    const chat = startChat(['--script', script, '--workspace', workspace, '--permission-mode', 'accept-edits'], home);
    await chat.waitFor('› ');
    chat.pty.write('write one\r');
    await chat.waitFor(/turn #1 \S+ completed/);
    await chat.waitFor('› ');
    chat.pty.write('write two\r');
    await chat.waitFor(/turn #2 \S+ completed/);
    await chat.waitFor('› ');

    chat.pty.write('/undo\r');
    await chat.waitFor(/Undo turn #2 \S+ {2}write two/);
    await chat.waitFor('put back two.txt');
    await chat.waitFor('and cut the conversation back to before it');
    await chat.waitFor('Undo it? [y]es / [N]o: ');
    chat.pty.write('n\r');
    await chat.waitFor('Nothing undone.');
    expect(existsSync(join(workspace, 'two.txt'))).toBe(true);

    await chat.waitFor('› ');
    chat.pty.write('/undo\r');
    await chat.waitFor('Undo it? [y]es / [N]o: ');
    chat.pty.write('y\r');
    await chat.waitFor('Undid turn #2');
    await chat.waitFor('restored two.txt');
    expect(existsSync(join(workspace, 'two.txt'))).toBe(false);
    expect(existsSync(join(workspace, 'one.txt'))).toBe(true);
    chat.pty.write('/exit\r');
    expect(await chat.exited).toBe(0);
  });
});
