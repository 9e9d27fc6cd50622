import { openClawsmithHome } from '@clawsmith/core';
import { SessionStore } from '@clawsmith/core/testing';
import { testdir } from '@clawsmith/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { SharedEventReads, type EventLog } from './shared-event-reads.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A real store on a real SQLite home with three events, and how often its event log was queried. */
async function sessionWithEvents() {
  const home = await openClawsmithHome(testdir());
  closers.push(() => home.close());
  const store = new SessionStore(home.db);
  const session = await store.createSession({ workspaceRoot: testdir() });
  const todo = (content: string) => ({
    type: 'todos.updated' as const,
    todos: [{ content, status: 'pending' as const }],
  });
  await store.appendEvents(session.id, [todo('one'), todo('two'), todo('three')]);
  const queries = { count: 0 };
  const counted = new Proxy(store, {
    get(target, name, receiver) {
      if (name === 'listEvents') queries.count += 1;
      const value = Reflect.get(target, name, receiver) as unknown;
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  }) as EventLog;
  return { store, sessionId: session.id, queries, reads: new SharedEventReads(counted), todo };
}

describe('SharedEventReads', () => {
  it('gives streams at one place after one change one query, the same events and one encoding', async () => {
    const { sessionId, queries, reads } = await sessionWithEvents();
    reads.follow(sessionId, () => {});
    const heard = reads.mark();
    const [one, two] = await Promise.all([reads.read(sessionId, 0, 200, heard), reads.read(sessionId, 0, 200, heard)]);
    expect(queries.count).toBe(1);
    expect(two).toBe(one);
    expect(one.events.map((event) => event.sequence)).toEqual([1, 2, 3]);
    expect(one.encoded()).toBe(two.encoded());
    expect(new TextDecoder().decode(one.encoded())).toMatch(/^id: 1\ndata: \{.*\}\n\nid: 2\n/);
  });

  it('reads again for a stream that heard of a change after the last read began, and it sees the change', async () => {
    const { store, sessionId, queries, reads, todo } = await sessionWithEvents();
    reads.follow(sessionId, () => {});
    const before = reads.mark();
    expect((await reads.read(sessionId, 3, 200, before)).events).toEqual([]);
    await store.appendEvent(sessionId, todo('four'));
    const heard = reads.mark();
    const after = await reads.read(sessionId, 3, 200, heard);
    expect(after.events.map((event) => event.sequence)).toEqual([4]);
    expect(queries.count).toBe(2);
    // A stream not yet told of the change may take the earlier read: it wakes for the change next.
    expect((await reads.read(sessionId, 3, 200, before)).events.map((event) => event.sequence)).toEqual([4]);
    expect(queries.count).toBe(2);
  });

  it('holds the event at the place, or none when the session no longer reaches it', async () => {
    const { sessionId, reads } = await sessionWithEvents();
    const at = await reads.read(sessionId, 2, 200, reads.mark());
    expect([at.atPlace?.sequence, at.events.map((event) => event.sequence)]).toEqual([2, [3]]);
    const beyond = await reads.read(sessionId, 7, 200, reads.mark());
    expect([beyond.atPlace, beyond.events]).toEqual([undefined, []]);
    const start = await reads.read(sessionId, 0, 2, reads.mark());
    expect([start.atPlace, start.events.map((event) => event.sequence)]).toEqual([undefined, [1, 2]]);
  });

  it('close ends every stream that follows a session, and ends one that follows later at once', async () => {
    const { sessionId, reads } = await sessionWithEvents();
    const ended: string[] = [];
    reads.follow(sessionId, () => ended.push('first'));
    const release = reads.follow(sessionId, () => ended.push('released'));
    release();
    reads.close();
    reads.follow(sessionId, () => ended.push('late'));
    expect(ended).toEqual(['first', 'late']);
  });
});
