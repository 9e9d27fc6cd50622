import { openClawsmithHome } from '@clawsmith/core';
import { SessionStore } from '@clawsmith/core/testing';
import { describe, expect, it } from 'vitest';
import { SseReader } from '../__fixtures__/sse-client.js';
import { createWebHarness } from '../__fixtures__/web-harness.js';

async function seed(store: SessionStore, sessionId: string, count: number): Promise<void> {
  for (let index = 0; index < count; index += 100) {
    await store.appendEvents(
      sessionId,
      Array.from({ length: Math.min(100, count - index) }, (_, offset) => ({
        type: 'todos.updated' as const,
        todos: [{ content: `item ${index + offset}`, status: 'pending' }],
      })),
    );
  }
}

describe('GET /api/sessions/:sessionId/events', () => {
  it('pages events by afterSequence with a bounded limit', async () => {
    const web = await createWebHarness();
    const session = await web.core.createSession({ workspaceRoot: web.workspace });
    await seed(web.store, session.id, 449);
    const sequences: number[] = [];
    let after = 0;
    for (;;) {
      const response = await web.api(`/api/sessions/${session.id}/events?afterSequence=${after}&limit=200`);
      expect(response.status).toBe(200);
      const page = (await response.json()) as {
        events: { sequence: number }[];
        nextAfterSequence: number;
        hasMore: boolean;
        lastSequence: number;
      };
      expect(page.lastSequence).toBe(450);
      sequences.push(...page.events.map((event) => event.sequence));
      after = page.nextAfterSequence;
      if (!page.hasMore) break;
    }
    expect(sequences).toEqual(Array.from({ length: 450 }, (_, index) => index + 1));
  });

  it('answers the newest N events in one request (the page a view opens on)', async () => {
    const web = await createWebHarness();
    const session = await web.core.createSession({ workspaceRoot: web.workspace });
    await seed(web.store, session.id, 449);
    const response = await web.api(`/api/sessions/${session.id}/events?newest=200`);
    expect(response.status).toBe(200);
    const page = (await response.json()) as {
      events: { sequence: number }[];
      nextAfterSequence: number;
      hasMore: boolean;
      lastSequence: number;
    };
    expect(page.events.map((event) => event.sequence)).toEqual(Array.from({ length: 200 }, (_, index) => 251 + index));
    expect(page).toMatchObject({ nextAfterSequence: 450, hasMore: false, lastSequence: 450 });
    const all = (await (await web.api(`/api/sessions/${session.id}/events?newest=1000`)).json()) as {
      events: { sequence: number }[];
    };
    expect(all.events.map((event) => event.sequence)).toEqual(Array.from({ length: 450 }, (_, index) => index + 1));
    const fresh = await web.core.createSession({ workspaceRoot: web.workspace });
    expect(await (await web.api(`/api/sessions/${fresh.id}/events?newest=200`)).json()).toMatchObject({
      events: [{ sequence: 1, type: 'session.created' }],
      nextAfterSequence: 1,
      hasMore: false,
      lastSequence: 1,
    });
  });

  it('refuses newest combined with a cursor or a limit, and out of range, saying what to ask instead', async () => {
    const web = await createWebHarness();
    const session = await web.core.createSession({ workspaceRoot: web.workspace });
    for (const query of ['newest=0', 'newest=1001', 'newest=-5', 'newest=10&afterSequence=3', 'newest=10&limit=5']) {
      const response = await web.api(`/api/sessions/${session.id}/events?${query}`);
      expect(response.status, query).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: 'invalid_request' } });
    }
    const combined = await web.api(`/api/sessions/${session.id}/events?newest=10&limit=5`);
    expect(JSON.stringify(await combined.json())).toContain('newest stands alone');
  });

  it('refuses negative, huge, malformed and unknown query values with invalid_request', async () => {
    const web = await createWebHarness();
    const session = await web.core.createSession({ workspaceRoot: web.workspace });
    for (const query of [
      'afterSequence=-1',
      'afterSequence=99999999999999999999',
      'afterSequence=1e3',
      'afterSequence=abc',
      'afterSequence=',
      'limit=0',
      'limit=1001',
      'afterSequence=1&afterSequence=2',
      'sequence=1',
    ]) {
      const response = await web.api(`/api/sessions/${session.id}/events?${query}`);
      expect(response.status, query).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: 'invalid_request' } });
    }
    const past = await web.api(`/api/sessions/${session.id}/events?afterSequence=9007199254740991`);
    expect(await past.json()).toMatchObject({ events: [], hasMore: false, lastSequence: 1 });
    const missing = await web.api('/api/sessions/no-such-session/events');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'session_not_found' } });
  });
});

describe('GET /api/sessions/:sessionId/events/stream', () => {
  it('streams stored events, then events another connection commits, each sequence once and in order', async () => {
    const web = await createWebHarness();
    const session = await web.core.createSession({ workspaceRoot: web.workspace });
    await seed(web.store, session.id, 9);
    const response = await web.api(`/api/sessions/${session.id}/events/stream`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = new SseReader(response);
    // A second connection to the same database, as another process has: only data_version tells.
    const other = await openClawsmithHome(web.homePath);
    try {
      const writer = new SessionStore(other.db);
      const writing = (async () => {
        for (let index = 0; index < 20; index += 1) {
          await writer.appendEvent(session.id, { type: 'todos.updated', todos: [] });
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      const received: number[] = [];
      while (received.length < 30) {
        const message = (await reader.next())!;
        const event = JSON.parse(message.data) as { sequence: number; sessionId: string };
        expect(message.id).toBe(String(event.sequence));
        expect(event.sessionId).toBe(session.id);
        received.push(event.sequence);
      }
      await writing;
      expect(received).toEqual(Array.from({ length: 30 }, (_, index) => index + 1));
    } finally {
      await reader.cancel();
      await other.close();
    }
  });

  it('also sees events written on its own connection outside core (data_version does not change for those)', async () => {
    const web = await createWebHarness();
    const session = await web.core.createSession({ workspaceRoot: web.workspace });
    const reader = new SseReader(await web.api(`/api/sessions/${session.id}/events/stream`));
    expect(JSON.parse((await reader.next())!.data)).toMatchObject({ sequence: 1 });
    await web.store.appendEvent(session.id, { type: 'todos.updated', todos: [] });
    expect(JSON.parse((await reader.next(5_000))!.data)).toMatchObject({ sequence: 2, type: 'todos.updated' });
    await reader.cancel();
  });

  it('resumes after Last-Event-ID, and refuses a malformed one', async () => {
    const web = await createWebHarness();
    const session = await web.core.createSession({ workspaceRoot: web.workspace });
    await seed(web.store, session.id, 9);
    const response = await web.api(`/api/sessions/${session.id}/events/stream`, { headers: { 'last-event-id': '7' } });
    const reader = new SseReader(response);
    const first = JSON.parse((await reader.next())!.data) as { sequence: number };
    expect(first.sequence).toBe(8);
    await reader.cancel();
    for (const value of ['-1', 'x', '1.5', '99999999999999999999']) {
      const bad = await web.api(`/api/sessions/${session.id}/events/stream`, { headers: { 'last-event-id': value } });
      expect(bad.status, value).toBe(400);
      expect(await bad.json()).toMatchObject({ error: { code: 'invalid_last_event_id' } });
    }
  });

  it('tells the client to reload when a restore cuts the session back below what it was sent', async () => {
    const web = await createWebHarness({ responses: [{ text: 'one' }, { text: 'two' }] });
    const session = await web.core.createSession({ workspaceRoot: web.workspace });
    const first = await web.core.runTurn({ sessionId: session.id, prompt: 'first' });
    await web.core.runTurn({ sessionId: session.id, prompt: 'second' });
    const last = await web.store.lastSequence(session.id);
    const reader = new SseReader(await web.api(`/api/sessions/${session.id}/events/stream`));
    for (let count = 0; count < last; count += 1) await reader.next();
    await web.core.restore(session.id, first.turnId, 'session');
    const message = (await reader.next())!;
    expect(message.event).toBe('reset');
    const reset = JSON.parse(message.data) as { reason: string; lastSequence: number };
    expect(reset.reason).toBe('session_restored');
    // The cut (back to 1), then the restore's own event (2): on PostgreSQL the cut is announced
    // on its own, so the stream may stop between the two. The client reloads from either.
    expect([1, 2]).toContain(reset.lastSequence);
    expect(await reader.next()).toBeUndefined();
  });

  it('bounds the number of open streams and frees a slot when a client goes away', async () => {
    const web = await createWebHarness({ maxStreams: 3 });
    const session = await web.core.createSession({ workspaceRoot: web.workspace });
    const readers = await Promise.all(
      [0, 1, 2].map(async () => new SseReader(await web.api(`/api/sessions/${session.id}/events/stream`))),
    );
    for (const reader of readers) expect((await reader.next())!.event).toBe('message');
    const refused = await web.api(`/api/sessions/${session.id}/events/stream`);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: { code: 'too_many_streams' } });
    await readers[0]!.cancel();
    await expect.poll(async () => (await web.api(`/api/sessions/${session.id}/events/stream`)).status).toBe(200);
    await Promise.all(readers.map((reader) => reader.cancel()));
  });
});
