import { describe, expect, it } from 'vitest';
import { createWebHarness } from '../__fixtures__/web-harness.js';

describe('subagent links in the session API', () => {
  it("lists a parent's children and gives each child its delegatedBy, in the list and in one session", async () => {
    const web = await createWebHarness({
      files: { 'notes.md': 'the answer is 42\n' },
      responses: [
        { toolCalls: [{ id: 'd1', name: 'delegate_task', arguments: { prompt: 'find the answer in notes.md' } }] },
        { text: 'found' },
      ],
      children: {
        d1: [
          { toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'notes.md' } }] },
          { text: 'notes.md says 42' },
        ],
      },
    });
    const parent = await web.core.createSession({ workspaceRoot: web.workspace });
    const turn = await web.core.runTurn({ sessionId: parent.id, prompt: 'ask a helper' });
    expect(turn.status).toBe('completed');
    const [delegation] = await web.core.listDelegations(parent.id);
    const childId = delegation!.childSessionId;

    const listed = (await (await web.api('/api/sessions')).json()) as {
      sessions: { id: string; delegatedBy: unknown; children: unknown[] }[];
    };
    const parentSummary = listed.sessions.find((session) => session.id === parent.id)!;
    expect(parentSummary.delegatedBy).toBeNull();
    expect(parentSummary.children).toEqual([
      { sessionId: childId, kind: 'task', status: 'completed', prompt: 'find the answer in notes.md' },
    ]);
    const link = { sessionId: parent.id, turnId: turn.turnId, toolCallId: 'd1', kind: 'task', status: 'completed' };
    expect(listed.sessions.find((session) => session.id === childId)).toMatchObject({
      delegatedBy: link,
      children: [],
    });
    expect(await (await web.api(`/api/sessions/${childId}`)).json()).toMatchObject({ delegatedBy: link });
    expect(await (await web.api(`/api/sessions/${parent.id}`)).json()).toMatchObject({
      children: [{ sessionId: childId }],
    });
  });
});
