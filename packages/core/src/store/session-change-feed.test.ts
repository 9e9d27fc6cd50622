import { resolve } from 'node:path';
import { startLineChild, testdir } from '@clawsmith/test-utils';
import { testDatabaseEngine } from '@clawsmith/test-utils/postgres';
import { openDatabase, type DatabaseHandle } from '@clawsmith/platform';
import { createScriptedProvider } from '@clawsmith/providers';
import { sql } from 'kysely';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CHILD_TIMEOUT } from '../__fixtures__/killed-child.js';
import { createAgentCore } from '../agent-core.js';
import { openClawsmithHome } from '../clawsmith-home.js';
import { openSessionChangeFeed, type SessionChangeFeed } from './session-change-feed.js';
import type { SessionEvent } from './session-records.js';
import { SessionStore } from './session-store.js';

const appender = resolve(import.meta.dirname, '../__fixtures__/appending-events.ts');

async function openHome(home: string) {
  const opened = await openClawsmithHome(home);
  onTestFinished(() => opened.close());
  expect(opened.engine).toBe(testDatabaseEngine());
  return { db: opened.db, store: new SessionStore(opened.db) };
}

async function openFeed(db: DatabaseHandle): Promise<SessionChangeFeed> {
  const feed = await openSessionChangeFeed({ db });
  onTestFinished(() => feed.close());
  return feed;
}

/**
 * Follows a session the way the web server's event stream does: each wake-up reads the events
 * after the last one read, by sequence. `until(n)` resolves once the last sequence read is `n`.
 */
function follow(feed: SessionChangeFeed, store: SessionStore, sessionId: string, afterSequence = 0) {
  const read: SessionEvent[] = [];
  let cursor = afterSequence;
  let reading: Promise<void> = Promise.resolve();
  let wakes = 0;
  const waiters = new Set<() => void>();
  const readOn = () => {
    reading = reading.then(async () => {
      const events = await store.listEvents(sessionId, { afterSequence: cursor });
      read.push(...events);
      cursor = events.at(-1)?.sequence ?? cursor;
      for (const waiter of waiters) waiter();
    });
  };
  const stop = feed.watch(sessionId, () => {
    wakes += 1;
    readOn();
  });
  // A wake-up already taken may still be reading: it must end before the home closes.
  onTestFinished(async () => {
    stop();
    await reading;
  });
  return {
    read,
    get wakes() {
      return wakes;
    },
    async until(sequence: number, timeoutMs = 20_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (cursor < sequence) {
        if (Date.now() > deadline) throw new Error(`Only read up to ${cursor} of ${sequence}.`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
          function done() {
            clearTimeout(timer);
            waiters.delete(done);
            resolve();
          }
          waiters.add(done);
        });
      }
    },
    /** Wake-ups counted so far, once it has seen one more than `count`. */
    async woken(count: number, timeoutMs = 20_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (wakes <= count) {
        if (Date.now() > deadline) throw new Error('No wake-up arrived in time.');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
          function done() {
            clearTimeout(timer);
            waiters.delete(done);
            resolve();
          }
          waiters.add(done);
        });
      }
    },
  };
}

describe('openSessionChangeFeed', () => {
  it(
    'wakes a watcher for events another process appends, and reading by sequence sees each once, in order',
    async () => {
      const home = testdir();
      const { db, store } = await openHome(home);
      const session = await store.createSession({ workspaceRoot: '/workspace' });
      const other = await store.createSession({ workspaceRoot: '/workspace' });
      const feed = await openFeed(db);
      const follower = follow(feed, store, session.id);
      const bystander = follow(feed, store, other.id);

      const writer = await startLineChild(appender, [home, session.id, 'w']);
      expect(await writer.next()).toBe('READY');
      writer.send('20 3');
      expect(await writer.next()).toBe('DONE');
      await follower.until(60);

      expect(follower.read.map((event) => event.sequence)).toEqual(Array.from({ length: 60 }, (_, index) => index + 1));
      expect(bystander.read).toEqual([]);
    },
    CHILD_TIMEOUT,
  );

  it('wakes a watcher when another connection cuts the session back, and when it deletes it', async () => {
    const home = testdir();
    const { db, store } = await openHome(home);
    const session = await store.createSession({ workspaceRoot: '/workspace' });
    await store.startTurn({
      sessionId: session.id,
      turnId: 'turn-1',
      prompt: 'go',
      activation: [],
      startedAt: '2026-01-01T00:00:00.000Z',
    });
    const events = await store.appendEvents(
      session.id,
      Array.from({ length: 5 }, (_, index) => ({
        type: 'assistant.message' as const,
        turnId: 'turn-1',
        text: `${index}`,
        toolCalls: [],
      })),
    );
    const feed = await openFeed(db);
    const follower = follow(feed, store, session.id, events.at(-1)!.sequence);
    const elsewhere = (await openHome(home)).store;

    const before = follower.wakes;
    await elsewhere.truncate(session.id, {
      turnId: 'turn-1',
      messageCount: 0,
      eventSequence: 2,
      turnOrdinal: 1,
      todos: [],
      activation: [],
    });
    await follower.woken(before);
    expect(await store.lastSequence(session.id)).toBe(2);

    const beforeDeletion = follower.wakes;
    await elsewhere.deleteSession(session.id);
    await follower.woken(beforeDeletion);
  });

  it.runIf(testDatabaseEngine() === 'postgres')(
    'after its listening connection is cut, reconnects and catches up on what was committed meanwhile',
    async () => {
      const home = testdir();
      const { db, store } = await openHome(home);
      const session = await store.createSession({ workspaceRoot: '/workspace' });
      const feed = await openFeed(db);
      const follower = follow(feed, store, session.id);
      const elsewhere = (await openHome(home)).store;
      await elsewhere.appendEvents(session.id, [{ type: 'assistant.message', text: 'first', toolCalls: [] }]);
      await follower.until(1);

      // No new connection to the database for now: the listener, cut off, cannot come back, so the
      // next append's notification reaches nobody. The pools' open connections go on working.
      const database = (await sql<{ name: string }>`select current_database() as name`.execute(db)).rows[0]!.name;
      const adminUrl = new URL(process.env.CLAWSMITH_DATABASE_URL!);
      adminUrl.pathname = '/postgres';
      const admin = await openDatabase({ url: adminUrl.toString() });
      onTestFinished(() => admin.close());
      await sql.raw(`alter database ${database} with allow_connections false`).execute(admin.db);
      const terminated = await sql<{ pid: number }>`
        select pg_terminate_backend(pid), pid from pg_stat_activity
        where datname = current_database() and application_name = 'clawsmith listener'`.execute(db);
      expect(terminated.rows).toHaveLength(1);
      // Gone for sure before the append, or it might still hand over that notification.
      for (let gone = false; !gone;) {
        const rows = await sql`select 1 from pg_stat_activity where pid = ${terminated.rows[0]!.pid}`.execute(db);
        gone = rows.rows.length === 0;
      }
      await elsewhere.appendEvents(
        session.id,
        Array.from({ length: 3 }, (_, index) => ({
          type: 'assistant.message' as const,
          text: `while cut off ${index}`,
          toolCalls: [],
        })),
      );
      await sql.raw(`alter database ${database} with allow_connections true`).execute(admin.db);

      await follower.until(4);
      await elsewhere.appendEvents(session.id, [{ type: 'assistant.message', text: 'after', toolCalls: [] }]);
      await follower.until(5);
      expect(follower.read.map((event) => event.sequence)).toEqual([1, 2, 3, 4, 5]);
    },
  );

  it('is what AgentCore.openChangeFeed opens: events of the core itself and of another connection wake its watchers', async () => {
    const home = testdir();
    const opened = await openClawsmithHome(home);
    onTestFinished(() => opened.close());
    const core = createAgentCore({
      db: opened.db,
      provider: createScriptedProvider({ script: { responses: [{ text: 'Done.' }] } }),
      checkpoints: opened.checkpoints,
      builtinTools: [],
    });
    onTestFinished(() => core.close());
    const session = await core.createSession({ workspaceRoot: testdir() });
    const feed = await core.openChangeFeed({ pollIntervalMs: 10 });
    onTestFinished(() => feed.close());
    const reader = new SessionStore(opened.db);
    const follower = follow(feed, reader, session.id, await reader.lastSequence(session.id));

    await core.runTurn({ sessionId: session.id, prompt: 'hello' });
    const afterTurn = await reader.lastSequence(session.id);
    await follower.until(afterTurn);
    const elsewhere = (await openHome(home)).store;
    await elsewhere.appendEvents(session.id, [{ type: 'assistant.message', text: 'from elsewhere', toolCalls: [] }]);
    await follower.until(afterTurn + 1);
    expect(follower.read.at(-1)).toMatchObject({ type: 'assistant.message', text: 'from elsewhere' });
    expect(follower.read.map((event) => event.type)).toContain('turn.completed');
  });

  it('wakes every watcher one last time on close and then stays silent', async () => {
    const { db, store } = await openHome(testdir());
    const session = await store.createSession({ workspaceRoot: '/workspace' });
    const feed = await openSessionChangeFeed({ db });
    let wakes = 0;
    feed.watch(session.id, () => (wakes += 1));
    await feed.close();
    expect(wakes).toBe(1);
    await store.appendEvent(session.id, { type: 'assistant.message', text: 'late', toolCalls: [] });
    await feed.close();
    expect(wakes).toBe(1);
  });
});
