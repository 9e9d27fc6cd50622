import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openClawsmithHome } from '@clawsmith/core';
import { SessionStore } from '@clawsmith/core/testing';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { connectServe, processAlive, processesWith, waitFor } from './mcp-serve-harness.js';

type Structured = { status: string; code?: string; [key: string]: unknown };
const structured = (result: { structuredContent?: unknown }) => result.structuredContent as Structured;

describe('clawsmith mcp serve: connections and sessions', { timeout: 120_000 }, () => {
  it('a client that disconnects mid-call: the call closes cancelled and no process is left', async () => {
    const home = testdir();
    const served = await connectServe({ home, workspace: testdir(), approve: 'allow' });
    // A marker no other process on the machine carries, to find the command's real pids.
    const marker = `31.${process.pid}${Date.now() % 100_000}`;
    const running = served.call('run_command', { command: `sleep ${marker}; echo never` }).catch((error) => error);
    await waitFor(() => processesWith(`sleep ${marker}`).length > 0, 'the command to start');
    const commandPids = processesWith(`sleep ${marker}`);
    await served.client.close();
    expect(await running).toBeInstanceOf(Error);
    await waitFor(() => !processAlive(served.pid), 'clawsmith mcp serve to exit');
    await waitFor(() => commandPids.every((pid) => !processAlive(pid)), 'the command processes to end', 10_000);
    expect(processesWith(`sleep ${marker}`)).toEqual([]);

    const stored = await openClawsmithHome(home);
    try {
      const store = new SessionStore(stored.db);
      const [session] = await store.listSessions();
      const events = await store.listEvents(session!.id);
      const completed = events.find((event) => event.type === 'tool.completed');
      expect(completed).toMatchObject({ toolName: 'run_command', status: 'cancelled' });
      expect((await store.listTurns(session!.id)).map((turn) => turn.status)).toEqual(['cancelled']);
    } finally {
      await stored.close();
    }
  });

  it('two clients on one workspace: two sessions, and undo never overwrites the other one’s later edit', async () => {
    const home = testdir();
    const workspace = testdir({ 'a.txt': 'one\n' });
    const [first, second] = await Promise.all([
      connectServe({ home, workspace, name: 'first' }),
      connectServe({ home, workspace, name: 'second' }),
    ]);
    const file = () => readFileSync(join(workspace, 'a.txt'), 'utf8');
    expect((await first.call('edit_file', { path: 'a.txt', oldText: 'one', newText: 'two' })).isError).toBe(false);
    expect((await second.call('edit_file', { path: 'a.txt', oldText: 'two', newText: 'three' })).isError).toBe(false);

    const conflict = await first.call('clawsmith_undo');
    expect(structured(conflict)).toMatchObject({ status: 'error', code: 'checkpoint_conflict' });
    expect(first.text(conflict)).toContain('a.txt');
    expect(file()).toBe('three\n');
    // Each session lists only its own changes.
    expect(second.text(await second.call('clawsmith_changes'))).toContain('MCP second 1.0.0: edit_file');
    expect(second.text(await second.call('clawsmith_changes'))).not.toContain('MCP first');

    expect((await second.call('clawsmith_undo')).isError).toBe(false);
    expect(file()).toBe('two\n');
    expect((await first.call('clawsmith_undo')).isError).toBe(false);
    expect(file()).toBe('one\n');
  });
});
