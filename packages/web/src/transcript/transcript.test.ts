import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createWebHarness } from '../__fixtures__/web-harness.js';

describe('GET /api/sessions/:sessionId/messages', () => {
  it('serves structured tool results as stored, with their display', async () => {
    const web = await createWebHarness({
      files: { 'a.txt': 'hello\n' },
      responses: [
        {
          toolCalls: [
            { id: 'call_1', name: 'read_file', arguments: { path: 'a.txt' } },
            { id: 'call_2', name: 'read_file', arguments: { path: 'missing.txt' } },
          ],
        },
        { text: 'Read it.' },
      ],
    });
    const session = await web.core.createSession({ workspaceRoot: web.workspace });
    await web.core.runTurn({ sessionId: session.id, prompt: 'read a.txt' });
    const response = await web.api(`/api/sessions/${session.id}/messages`);
    expect(response.status).toBe(200);
    const page = (await response.json()) as {
      messages: {
        role: string;
        position: number;
        toolResult?: { status: string; code?: string };
        statusInferred?: boolean;
      }[];
      total: number;
      nextOffset: number | null;
    };
    expect(page.total).toBe(5);
    expect(page.nextOffset).toBeNull();
    const tools = page.messages.filter((message) => message.role === 'tool');
    expect(
      tools.map((message) => [message.toolResult?.status, message.toolResult?.code, message.statusInferred]),
    ).toEqual([
      ['success', undefined, false],
      ['error', 'file_not_found', false],
    ]);
    const second = await web.api(`/api/sessions/${session.id}/messages?offset=3&limit=1`);
    expect(await second.json()).toMatchObject({ messages: [{ position: 4, role: 'tool' }], total: 5, nextOffset: 4 });
  });

  it('infers the status of tool messages of an older session from their content prefix', async () => {
    const web = await createWebHarness();
    const fixture = readFileSync(new URL('../__fixtures__/older-session.sql', import.meta.url), 'utf8');
    for (const statement of fixture.split(/;\s*\n/).filter((text) => /\binsert\b/i.test(text)))
      await sql.raw(statement).execute(web.home.db);
    const response = await web.api('/api/sessions/older-session/messages');
    const page = (await response.json()) as {
      messages: { role: string; toolName?: string; toolResult?: { status: string }; statusInferred?: boolean }[];
    };
    expect(
      page.messages
        .filter((message) => message.role === 'tool')
        .map((message) => [message.toolName, message.toolResult?.status, message.statusInferred]),
    ).toEqual([
      ['read_file', 'success', true],
      ['run_command', 'denied', true],
      ['edit_file', 'error', true],
      ['run_command', 'cancelled', true],
      ['write_file', 'unknown', true],
    ]);
    const summary = await web.api('/api/sessions/older-session');
    expect(await summary.json()).toMatchObject({ id: 'older-session', status: 'completed', title: 'an old session' });
    const events = await web.api('/api/sessions/older-session/events');
    expect(((await events.json()) as { events: unknown[] }).events).toHaveLength(3);
  });
});
