import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openClawsmithHome } from '@clawsmith/core';
import { sql } from 'kysely';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createWebHarness, type WebHarness } from '../__fixtures__/web-harness.js';

// A turn runs on the server's own schedule: on a loaded 2-core machine it can take seconds to end,
// past expect.poll's default of one second (a time limit, not a speed assertion).
const TURN_ENDS = { timeout: 30_000 };

const WRITE = {
  toolCalls: [{ id: 'w1', name: 'write_file', arguments: { path: 'b.txt', content: 'from the web\n' } }],
};

async function pendingApproval(web: WebHarness, sessionId: string) {
  await expect
    .poll(
      async () =>
        ((await (await web.api(`/api/sessions/${sessionId}/approvals`)).json()) as { approvals: unknown[] }).approvals
          .length,
    )
    .toBe(1);
  const { approvals } = (await (await web.api(`/api/sessions/${sessionId}/approvals`)).json()) as {
    approvals: { id: string; toolName: string; answerableHere: boolean; input?: unknown }[];
  };
  return approvals[0]!;
}

async function turnStatus(web: WebHarness, sessionId: string): Promise<string | undefined> {
  return (await web.store.getLastTurn(sessionId))?.status;
}

describe('turns and approvals from the web', () => {
  it('starts a turn, lets the person allow the call it waits for, and the turn completes', async () => {
    const web = await createWebHarness({ permissionMode: 'default', responses: [WRITE, { text: 'Written.' }] });
    const session = await web.core.createSession({ workspaceRoot: web.workspace });
    const started = await web.api(`/api/sessions/${session.id}/turns`, { json: { prompt: 'write b' } });
    expect(started.status).toBe(202);
    const { turnId } = (await started.json()) as { turnId: string };
    expect(turnId).toMatch(/^[0-9a-f-]{36}$/);
    const approval = await pendingApproval(web, session.id);
    expect(approval).toMatchObject({ toolName: 'write_file', answerableHere: true, input: { path: 'b.txt' } });
    expect(await (await web.api(`/api/sessions/${session.id}`)).json()).toMatchObject({
      status: 'running',
      runningHere: true,
    });
    const again = await web.api(`/api/sessions/${session.id}/turns`, { json: { prompt: 'again' } });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { code: 'turn_in_progress' } });

    const answered = await web.api(`/api/sessions/${session.id}/approvals/${approval.id}`, {
      json: { answer: 'allow' },
    });
    expect(answered.status).toBe(200);
    await expect.poll(() => turnStatus(web, session.id), TURN_ENDS).toBe('completed');
    expect(readFileSync(join(web.workspace, 'b.txt'), 'utf8')).toBe('from the web\n');
    const unknown = await web.api(`/api/sessions/${session.id}/approvals/${approval.id}`, {
      json: { answer: 'allow' },
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'approval_not_found' } });
  });

  it('denies on a deny answer, and a cancel ends a waiting turn', async () => {
    const web = await createWebHarness({
      permissionMode: 'default',
      responses: [
        WRITE,
        { text: 'Refused.' },
        { toolCalls: [{ id: 'w2', name: 'write_file', arguments: { path: 'c.txt', content: 'x' } }] },
      ],
    });
    const session = await web.core.createSession({ workspaceRoot: web.workspace });
    await web.api(`/api/sessions/${session.id}/turns`, { json: { prompt: 'write b' } });
    const approval = await pendingApproval(web, session.id);
    await web.api(`/api/sessions/${session.id}/approvals/${approval.id}`, { json: { answer: 'deny' } });
    await expect.poll(() => turnStatus(web, session.id), TURN_ENDS).toBe('completed');
    expect(existsSync(join(web.workspace, 'b.txt'))).toBe(false);

    await web.api(`/api/sessions/${session.id}/turns`, { json: { prompt: 'write c' } });
    await pendingApproval(web, session.id);
    const cancelled = await web.api(`/api/sessions/${session.id}/cancel`, { json: {} });
    expect(cancelled.status).toBe(200);
    expect(await turnStatus(web, session.id)).toBe('cancelled');
    expect(existsSync(join(web.workspace, 'c.txt'))).toBe(false);
    const nothing = await web.api(`/api/sessions/${session.id}/cancel`, { json: {} });
    expect(nothing.status).toBe(409);
    expect(await nothing.json()).toMatchObject({ error: { code: 'turn_not_running' } });
  });

  it('takes the next prompt as soon as a turn is seen ended, by its event or by its status', async () => {
    const web = await createWebHarness({ responses: [{ text: 'One.' }, { text: 'Two.' }, { text: 'Three.' }] });
    const session = await web.core.createSession({ workspaceRoot: web.workspace });
    const next: Promise<Response>[] = [];
    const unsubscribe = web.core.subscribe((event) => {
      // From the announcement itself, before the first turn's run has returned.
      if (event.type === 'turn.completed' && next.length === 0)
        next.push(web.api(`/api/sessions/${session.id}/turns`, { json: { prompt: 'two' } }));
    });
    onTestFinished(unsubscribe);
    expect((await web.api(`/api/sessions/${session.id}/turns`, { json: { prompt: 'one' } })).status).toBe(202);
    await expect.poll(() => next.length, TURN_ENDS).toBe(1);
    const second = await next[0]!;
    expect(second.status, await second.clone().text()).toBe(202);
    // A reader of the store (another server) sees the end, and asks at once.
    await expect
      .poll(async () => (await web.store.listTurns(session.id)).map((turn) => turn.status))
      .toEqual(['completed', 'completed']);
    const third = await web.api(`/api/sessions/${session.id}/turns`, { json: { prompt: 'three' } });
    expect(third.status, await third.clone().text()).toBe(202);
    await expect.poll(() => turnStatus(web, session.id), TURN_ENDS).toBe('completed');
    expect((await web.store.listTurns(session.id)).map((turn) => turn.status)).toEqual([
      'completed',
      'completed',
      'completed',
    ]);
  });

  it('answers turn_in_progress while another live process runs the session, and provider_required without a model', async () => {
    const web = await createWebHarness();
    const session = await web.core.createSession({ workspaceRoot: web.workspace });
    // Another process owns a running turn of this session (as a `clawsmith run` would).
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    onTestFinished(() => void other.kill('SIGKILL'));
    const otherHome = await openClawsmithHome(web.homePath);
    await sql`insert into session_turn (session_id, turn_id, ordinal, prompt, status, activation_json, owner_pid, started_at)
      values (${session.id}, 'turn-elsewhere', 1, 'busy', 'running', '[]', ${other.pid}, ${new Date().toISOString()})`.execute(
      otherHome.db,
    );
    await otherHome.close();
    for (const [path, json] of [
      [`/api/sessions/${session.id}/turns`, { prompt: 'hello' }],
      [`/api/sessions/${session.id}/cancel`, {}],
      [`/api/sessions/${session.id}/turns/turn-elsewhere/restore`, { scope: 'session' }],
    ] as const) {
      const response = await web.api(path, { json });
      expect(response.status, path).toBe(409);
      expect(await response.json()).toMatchObject({ error: { code: 'turn_in_progress' } });
    }
    expect(await (await web.api(`/api/sessions/${session.id}`)).json()).toMatchObject({
      status: 'running',
      runningHere: false,
    });

    const readOnly = await createWebHarness({ canRunTurns: false });
    const idle = await readOnly.core.createSession({ workspaceRoot: readOnly.workspace });
    const refused = await readOnly.api(`/api/sessions/${idle.id}/turns`, { json: { prompt: 'hello' } });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: { code: 'provider_required' } });
  });

  it("runs each turn with the system prompt the server was given for the session's workspace", async () => {
    const prompts: string[] = [];
    const web = await createWebHarness({
      responses: [{ text: 'Hi.' }],
      systemPrompt: (session) => {
        const prompt = `Workspace ${session.workspaceRoot}; session ${session.id}.`;
        prompts.push(prompt);
        return prompt;
      },
    });
    const session = await web.core.createSession({ workspaceRoot: web.workspace });
    const started = await web.api(`/api/sessions/${session.id}/turns`, { json: { prompt: 'hello' } });
    expect(started.status).toBe(202);
    await expect.poll(() => turnStatus(web, session.id), TURN_ENDS).toBe('completed');
    expect(prompts).toEqual([`Workspace ${web.workspace}; session ${session.id}.`]);
    const request = (await web.store.listEvents(session.id)).find((event) => event.type === 'request.started') as
      { systemPromptSha256?: string } | undefined;
    expect(request?.systemPromptSha256).toBe(createHash('sha256').update(prompts[0]!).digest('hex'));
  });
});
