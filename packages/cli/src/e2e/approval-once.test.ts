import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { writeScript } from './cli-harness.js';
import { startChat } from './pty-chat.js';
import { renderedRows } from './terminal-screen.js';

const QUESTION = 'Allow? [y]es / [n]o / [a]lways for this session:';

/** A chat whose first turn writes `name` and so asks for approval. */
function chatAskingToWrite(name: string) {
  const home = testdir();
  const workspace = testdir();
  const script = writeScript(home, [
    { text: 'Creating.', toolCalls: [{ id: 'call_w', name: 'write_file', arguments: { path: name, content: 'x\n' } }] },
    { text: 'Done with it.' },
  ]);
  return { chat: startChat(['--script', script, '--workspace', workspace], home), workspace };
}

const questionRows = async (screen: string) =>
  (await renderedRows(screen)).filter((row) => row.includes('Allow? [y]es'));

describe('the approval question in a terminal', () => {
  it('is answered by a single key, without Enter, and stays drawn once', async () => {
    const { chat, workspace } = chatAskingToWrite('made.txt');
    await chat.waitFor('› ');
    chat.pty.write('please make the file\r');
    await chat.waitFor(QUESTION);
    // The terminal changes size while the question waits: the redraw replaces it, never adds one.
    chat.pty.resize(100, 40);
    await chat.waitFor(QUESTION);
    chat.pty.resize(120, 40);
    await chat.waitFor(QUESTION);
    chat.pty.write('y');
    await chat.waitFor(/turn #1 \S+ completed/);
    expect(existsSync(join(workspace, 'made.txt'))).toBe(true);
    await chat.waitFor('› ');
    expect(await questionRows(chat.screen())).toEqual([`  ${QUESTION} y`]);
    chat.pty.write('/exit\r');
    expect(await chat.exited).toBe(0);
  });

  it('takes n as a denial at once, and the next prompt starts clean', async () => {
    const { chat, workspace } = chatAskingToWrite('no.txt');
    await chat.waitFor('› ');
    chat.pty.write('write no.txt\r');
    await chat.waitFor(QUESTION);
    chat.pty.write('n');
    await chat.waitFor(/denied \(permission_denied\) write_file/);
    await chat.waitFor(/turn #1 \S+ completed/);
    await chat.waitFor('› ');
    expect(existsSync(join(workspace, 'no.txt'))).toBe(false);
    // The key answered the question: it is not left in the next prompt's line.
    chat.pty.write('/todos\r');
    // Wait for the command's own answer: the typed echo alone also contains "todos".
    await chat.waitFor('(no todos)');
    const rows = await renderedRows(chat.screen());
    expect(rows.filter((row) => row.includes('Allow? [y]es'))).toEqual([`  ${QUESTION} n`]);
    expect(rows.filter((row) => row.startsWith('› '))).toContain('› /todos');
    chat.pty.write('/exit\r');
    expect(await chat.exited).toBe(0);
  });

  it('still takes a typed word and Enter, and asks again after something it cannot read', async () => {
    const { chat, workspace } = chatAskingToWrite('word.txt');
    await chat.waitFor('› ');
    chat.pty.write('write word.txt\r');
    await chat.waitFor(QUESTION);
    chat.pty.write('maybe\r');
    await chat.waitFor('Type y, n or a.');
    await chat.waitFor(QUESTION);
    chat.pty.write('\r');
    await chat.waitFor(/denied \(permission_denied\) write_file/);
    await chat.waitFor(/turn #1 \S+ completed/);
    expect(existsSync(join(workspace, 'word.txt'))).toBe(false);
    chat.pty.write('/exit\r');
    expect(await chat.exited).toBe(0);
  });
});
