import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli, writeScript } from './cli-harness.js';

const editingScript = [
  {
    text: 'Reading first.',
    toolCalls: [{ id: 'call_read', name: 'read_file', arguments: { path: 'notes.txt' } }],
  },
  {
    toolCalls: [
      { id: 'call_write', name: 'write_file', arguments: { path: 'hello.txt', content: 'hello\n' } },
      {
        id: 'call_edit',
        name: 'edit_file',
        arguments: { path: 'notes.txt', oldText: 'old line', newText: 'new line' },
      },
    ],
  },
  { text: 'Done.' },
];

describe('clawsmith run --json', () => {
  it('prints every persisted event as one JSON object per line, and nothing else, and changes the files', async () => {
    const home = testdir();
    const workspace = testdir({ 'notes.txt': 'old line\n' });
    const script = writeScript(home, editingScript);
    const run = await runCli(
      [
        'run',
        '--json',
        '--script',
        script,
        '--workspace',
        workspace,
        '--permission-mode',
        'accept-edits',
        'Tidy the notes',
      ],
      { home },
    );

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const events = parseJsonLines(run.stdout);
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('session.created');
    expect(types).toContain('turn.started');
    expect(types).toContain('request.started');
    expect(types.at(-1)).toBe('turn.completed');
    const sessionId = events[0]!.sessionId;
    expect(events.every((event) => event.sessionId === sessionId)).toBe(true);
    expect(events.map((event) => event.sequence)).toEqual(events.map((_, index) => index + 1));

    const completed = events.filter((event) => event.type === 'tool.completed');
    expect(completed.map((event) => event.toolCallId)).toEqual(['call_read', 'call_write', 'call_edit']);
    for (const event of completed) {
      const result = event.result as { version: number; status: string };
      expect(result.version).toBe(1);
      expect(result.status).toBe('success');
      expect(event.status).toBe('success');
      expect(typeof event.output).toBe('string');
      expect(typeof event.turnId).toBe('string');
    }
    const started = events.filter((event) => event.type === 'tool.started').map((event) => event.toolCallId);
    expect(started).toEqual(['call_read', 'call_write', 'call_edit']);
    expect(events.at(-1)).toMatchObject({ type: 'turn.completed', status: 'completed', manifest: { files: 2 } });

    expect(readFileSync(join(workspace, 'hello.txt'), 'utf8')).toBe('hello\n');
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('new line\n');
  });

  it('continues a session with --session: the sequence goes on without gaps', async () => {
    const home = testdir();
    const workspace = testdir({ 'a.txt': 'one\n' });
    const first = await runCli(
      [
        'run',
        '--json',
        '--script',
        writeScript(home, [{ text: 'hi' }], 'first.json'),
        '--workspace',
        workspace,
        'first',
      ],
      { home },
    );
    expect(first.code).toBe(0);
    const firstEvents = parseJsonLines(first.stdout);
    const sessionId = String(firstEvents[0]!.sessionId);

    const secondScript = writeScript(
      home,
      [{ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'read it' }],
      'second.json',
    );
    const second = await runCli(['run', '--json', '--script', secondScript, '--session', sessionId, 'second'], {
      home,
    });
    expect(second.code).toBe(0);
    const secondEvents = parseJsonLines(second.stdout);
    expect(secondEvents[0]!.sequence).toBe(firstEvents.length + 1);
    expect(secondEvents.every((event) => event.sessionId === sessionId)).toBe(true);
    expect(secondEvents.find((event) => event.type === 'tool.completed')).toMatchObject({
      status: 'success',
      toolName: 'read_file',
    });
  });

  it('denies a write in the default mode without a person to ask, and the file is not created', async () => {
    const home = testdir();
    const workspace = testdir();
    const script = writeScript(home, [
      { toolCalls: [{ id: 'call_w', name: 'write_file', arguments: { path: 'x.txt', content: 'x' } }] },
      { text: 'could not' },
    ]);
    const run = await runCli(['run', '--json', '--script', script, '--workspace', workspace, 'write x'], { home });
    expect(run.code).toBe(0);
    const events = parseJsonLines(run.stdout);
    const completed = events.find((event) => event.type === 'tool.completed')!;
    expect(completed).toMatchObject({
      toolCallId: 'call_w',
      status: 'denied',
      result: { status: 'denied', code: 'permission_denied' },
    });
    expect(events.some((event) => event.type === 'tool.started')).toBe(false);
    expect(() => readFileSync(join(workspace, 'x.txt'))).toThrow();
  });

  it('reads the prompt from stdin when none is given', async () => {
    const home = testdir();
    const workspace = testdir();
    const run = await runCli(
      ['run', '--json', '--script', writeScript(home, [{ text: 'ok' }]), '--workspace', workspace],
      { home, input: 'from stdin\n' },
    );
    expect(run.code).toBe(0);
    expect(parseJsonLines(run.stdout).find((event) => event.type === 'turn.started')).toMatchObject({
      prompt: 'from stdin',
    });
  });
});
