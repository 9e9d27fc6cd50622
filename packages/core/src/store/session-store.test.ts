import { resolve } from 'node:path';
import type { ModelMessage } from '@clawsmith/providers';
import { startLineChild, testdir } from '@clawsmith/test-utils';
import { testDatabaseEngine } from '@clawsmith/test-utils/postgres';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CHILD_TIMEOUT } from '../__fixtures__/killed-child.js';
import { openClawsmithHome } from '../clawsmith-home.js';
import { INSERT_CHUNK } from './insert-chunks.js';
import type { NewSessionEvent, SessionEvent } from './session-records.js';
import { SessionStore } from './session-store.js';

const appender = resolve(import.meta.dirname, '../__fixtures__/appending-events.ts');

async function openStore(home: string): Promise<SessionStore> {
  const opened = await openClawsmithHome(home);
  onTestFinished(() => opened.close());
  expect(opened.engine).toBe(testDatabaseEngine());
  return new SessionStore(opened.db);
}

function userMessage(index: number): ModelMessage {
  return { role: 'user', text: `message ${index}` };
}

function progressEvent(index: number): NewSessionEvent {
  return { type: 'tool.progress', turnId: 'turn-1', toolCallId: 'c1', toolName: 'slow', progress: index };
}

describe('the event log', () => {
  it('numbers a batch larger than one INSERT after the last event, and hands each event to every listener once, in order', async () => {
    const store = await openStore(testdir());
    const session = await store.createSession({ workspaceRoot: '/workspace' });
    await store.appendEvent(session.id, { type: 'session.created', workspaceRoot: '/workspace' });
    await store.appendEvent(session.id, { type: 'turn.started', turnId: 'turn-1', prompt: 'go', restorePointId: 'p1' });
    const heard: SessionEvent[] = [];
    store.subscribe(() => {
      throw new Error('a failing subscriber');
    });
    const unsubscribe = store.subscribe((event) => heard.push(event));

    const size = INSERT_CHUNK * 2 + 201;
    const stored = await store.appendEvents(
      session.id,
      Array.from({ length: size }, (_, index) => progressEvent(index)),
    );

    expect(stored.map((event) => event.sequence)).toEqual(Array.from({ length: size }, (_, index) => index + 3));
    expect(stored.map((event) => (event.type === 'tool.progress' ? event.progress : undefined))).toEqual(
      Array.from({ length: size }, (_, index) => index),
    );
    expect(heard).toEqual(stored);
    expect(await store.listEvents(session.id, { afterSequence: 2 })).toEqual(stored);
    expect(await store.lastSequence(session.id)).toBe(size + 2);
    unsubscribe();
    await store.appendEvent(session.id, { type: 'turn.completed', turnId: 'turn-1', status: 'completed' });
    expect(heard).toHaveLength(size);
  });

  it(
    'several processes appending to one session at once take every number once, each batch in one run',
    async () => {
      const home = testdir();
      const store = await openStore(home);
      const session = await store.createSession({ workspaceRoot: '/workspace' });
      const writers = await Promise.all(
        ['a', 'b', 'c'].map(async (name) => ({
          name,
          child: await startLineChild(appender, [home, session.id, name]),
        })),
      );
      for (const { child } of writers) expect(await child.next()).toBe('READY');
      // One writer's batch is larger than one INSERT, so it is written in chunks in one transaction.
      const plans = { a: [30, 4], b: [30, 4], c: [1, INSERT_CHUNK + 100] } as const;
      for (const { name, child } of writers) child.send(plans[name as keyof typeof plans].join(' '));
      expect(await Promise.all(writers.map(({ child }) => child.next()))).toEqual(['DONE', 'DONE', 'DONE']);

      const events = await store.listEvents(session.id);
      const total = 30 * 4 * 2 + INSERT_CHUNK + 100;
      expect(events.map((event) => event.sequence)).toEqual(Array.from({ length: total }, (_, index) => index + 1));
      const batches = new Map<string, number[]>();
      for (const event of events) {
        if (event.type !== 'assistant.message') throw new Error(`unexpected ${event.type}`);
        const [writer, batch, index] = event.text.split('/');
        const key = `${writer}/${batch}`;
        batches.set(key, [...(batches.get(key) ?? []), event.sequence]);
        expect(Number(index)).toBe(batches.get(key)!.length - 1);
      }
      expect(batches.size).toBe(61);
      for (const sequences of batches.values()) expect(sequences.at(-1)! - sequences[0]!).toBe(sequences.length - 1);
    },
    CHILD_TIMEOUT,
  );
});

describe('history', () => {
  it('copies messages, events and turns up to a point, and the todo list, into another session', async () => {
    const store = await openStore(testdir());
    const source = await store.createSession({ workspaceRoot: '/workspace', title: 'source' });
    const messageCount = INSERT_CHUNK * 2 + 50;
    await store.appendMessages(
      source.id,
      'turn-1',
      Array.from({ length: messageCount }, (_, index) => userMessage(index)),
    );
    await store.startTurn({
      sessionId: source.id,
      turnId: 'turn-1',
      prompt: 'first',
      activation: ['web_fetch'],
      startedAt: '2026-01-01T00:00:00.000Z',
    });
    await store.completeTurn(source.id, 'turn-1', 'completed');
    const events = await store.appendEvents(
      source.id,
      Array.from({ length: INSERT_CHUNK + 10 }, (_, index) => progressEvent(index)),
    );
    await store.setTodos(source.id, [{ content: 'write the test', status: 'in_progress' }]);
    await store.appendMessages(source.id, 'turn-2', [userMessage(messageCount)]);
    await store.startTurn({
      sessionId: source.id,
      turnId: 'turn-2',
      prompt: 'second',
      activation: [],
      startedAt: '2026-01-01T00:01:00.000Z',
    });
    await store.appendEvent(source.id, {
      type: 'turn.started',
      turnId: 'turn-2',
      prompt: 'second',
      restorePointId: 'p2',
    });

    const fork = await store.createSession({
      workspaceRoot: '/workspace',
      parentSessionId: source.id,
      forkedAtTurnId: 'turn-1',
    });
    await store.copyHistory(source.id, fork.id, {
      messageCount,
      eventSequence: events.at(-1)!.sequence,
      turnOrdinal: 1,
    });

    expect(await store.listMessages(fork.id)).toEqual((await store.listMessages(source.id)).slice(0, messageCount));
    expect(await store.listEvents(fork.id)).toEqual(events.map((event) => ({ ...event, sessionId: fork.id })));
    expect(await store.listTurns(fork.id)).toEqual([
      { ...(await store.getTurn(source.id, 'turn-1'))!, sessionId: fork.id },
    ]);
    expect(await store.getTodos(fork.id)).toEqual([{ content: 'write the test', status: 'in_progress' }]);
    expect(await store.countMessages(source.id)).toBe(messageCount + 1);
    // Counted from the last position: a copy and a truncation keep positions 1..n without gaps.
    expect(await store.countMessages(fork.id)).toBe(messageCount);
    await store.truncate(source.id, {
      turnId: 'turn-2',
      messageCount: 3,
      eventSequence: 0,
      turnOrdinal: 2,
      todos: [],
      activation: [],
    });
    await store.appendMessages(source.id, null, [userMessage(-1), userMessage(-2)]);
    expect(await store.listMessages(source.id)).toHaveLength(5);
    expect(await store.countMessages(source.id)).toBe(5);
  });
});

describe('turns', () => {
  it('lists only the turns still marked running, by ordinal, for recovery and deletion', async () => {
    const store = await openStore(testdir());
    const session = await store.createSession({ workspaceRoot: '/workspace' });
    const other = await store.createSession({ workspaceRoot: '/workspace' });
    for (const [sessionId, turnId] of [
      [session.id, 'done'],
      [session.id, 'left-running'],
      [other.id, 'elsewhere'],
      [session.id, 'interrupted'],
      [session.id, 'running-now'],
    ] as const)
      await store.startTurn({
        sessionId,
        turnId,
        prompt: turnId,
        activation: [],
        startedAt: '2026-01-01T00:00:00.000Z',
      });
    await store.completeTurn(session.id, 'done', 'completed');
    await store.completeTurn(session.id, 'interrupted', 'interrupted');

    expect((await store.listRunningTurns(session.id)).map((turn) => [turn.turnId, turn.ordinal, turn.status])).toEqual([
      ['left-running', 2, 'running'],
      ['running-now', 4, 'running'],
    ]);
    expect(await store.listRunningTurns(other.id)).toHaveLength(1);
  });
});

describe('SessionStore.listFirstPrompts', () => {
  it("gives each listed session's first prompt in one call, and nothing for a session without turns", async () => {
    const store = await openStore(testdir());
    const two = await store.createSession({ workspaceRoot: '/workspace' });
    const none = await store.createSession({ workspaceRoot: '/workspace' });
    const other = await store.createSession({ workspaceRoot: '/workspace' });
    const start = (sessionId: string, turnId: string, prompt: string) =>
      store.startTurn({ sessionId, turnId, prompt, activation: [], startedAt: '2026-01-01T00:00:00.000Z' });
    await start(two.id, 'a1', 'first of two');
    await start(two.id, 'a2', 'second of two');
    await start(other.id, 'b1', 'only one');
    expect(await store.listFirstPrompts([two.id, none.id, other.id])).toEqual(
      new Map([
        [two.id, 'first of two'],
        [other.id, 'only one'],
      ]),
    );
    expect(await store.listFirstPrompts([])).toEqual(new Map());
    expect(await store.listFirstPrompts([other.id])).toEqual(new Map([[other.id, 'only one']]));
  });
});
