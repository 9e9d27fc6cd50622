import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SseReader } from '../__fixtures__/sse-client.js';
import { createWebHarness } from '../__fixtures__/web-harness.js';

describe('bad input gets a clear JSON error with a stable code and changes nothing', () => {
  it('unknown routes, wrong methods, wrong content types, invalid JSON and oversized bodies', async () => {
    const web = await createWebHarness();
    const session = await web.core.createSession({ workspaceRoot: web.workspace, title: 'kept' });
    const expectError = async (response: Response, status: number, code: string) => {
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe(code);
      expect(body.error.message.length).toBeGreaterThan(10);
    };
    await expectError(await web.api('/api/nothing'), 404, 'route_not_found');
    await expectError(await web.api('/etc/passwd'), 404, 'route_not_found');
    const wrongMethod = await web.api(`/api/sessions/${session.id}`, { method: 'PUT' });
    expect(wrongMethod.headers.get('allow')).toBe('GET, PATCH, DELETE');
    await expectError(wrongMethod, 405, 'method_not_allowed');
    const patch = (body: string, type = 'application/json') =>
      web.api(`/api/sessions/${session.id}`, {
        method: 'PATCH',
        headers: { 'content-type': type, origin: web.server.origin },
        body,
      });
    await expectError(await patch('{"title": '), 400, 'invalid_json');
    await expectError(await patch('title=x', 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type');
    await expectError(await patch('{"title": "x", "extra": 1}'), 400, 'invalid_request');
    await expectError(await patch('[]'), 400, 'invalid_request');
    await expectError(await patch(JSON.stringify({ title: 'x'.repeat(1_100_000) })), 413, 'payload_too_large');
    expect((await web.store.getSession(session.id))?.title).toBe('kept');
  });

  it('bounds concurrent event streams: of 200 clients, 100 are served and the rest told to retry', async () => {
    const web = await createWebHarness();
    const session = await web.core.createSession({ workspaceRoot: web.workspace });
    const responses = await Promise.all(
      Array.from({ length: 200 }, () => web.api(`/api/sessions/${session.id}/events/stream`)),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(100);
    expect(statuses.filter((status) => status === 503)).toHaveLength(100);
    const served = responses.filter((response) => response.status === 200).map((response) => new SseReader(response));
    // Every served client gets the stream; a refused one gets the JSON error.
    expect(JSON.parse((await served[99]!.next())!.data)).toMatchObject({ type: 'session.created' });
    const refused = responses.find((response) => response.status === 503)!;
    expect(await refused.json()).toMatchObject({ error: { code: 'too_many_streams' } });
    await Promise.all(served.map((reader) => reader.cancel()));
  });

  it('drops an event-stream client that stops reading, instead of buffering for it', async () => {
    const web = await createWebHarness({ maxStreams: 1, stallTimeoutMs: 300 });
    const session = await web.core.createSession({ workspaceRoot: web.workspace });
    const socket = connect(web.server.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      `GET /api/sessions/${session.id}/events/stream HTTP/1.1\r\nHost: 127.0.0.1:${web.server.port}\r\n` +
        `Authorization: Bearer ${web.server.token}\r\n\r\n`,
    );
    socket.pause(); // never reads again
    await expect.poll(async () => (await web.api(`/api/sessions/${session.id}/events/stream`)).status).toBe(503);
    // 24 MB of events: far more than the socket buffers hold.
    const large = 'x'.repeat(60_000);
    for (let batch = 0; batch < 40; batch += 1)
      await web.store.appendEvents(
        session.id,
        Array.from({ length: 10 }, () => ({
          type: 'todos.updated' as const,
          todos: [{ content: large, status: 'pending' as const }],
        })),
      );
    await expect
      .poll(
        async () => {
          const response = await web.api(`/api/sessions/${session.id}/events/stream`);
          await response.body?.cancel();
          return response.status;
        },
        { timeout: 20_000, interval: 200 },
      )
      .toBe(200);
    socket.destroy();
  });
});
