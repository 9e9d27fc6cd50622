import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createScriptedProvider } from '@clawsmith/providers';
import type { ApprovalRequest } from '@clawsmith/tool-host';
import { describe, expect, it } from 'vitest';
import { call, createHarness } from '../__fixtures__/core-harness.js';
import type { AgentCore } from '../agent-core.js';
import { createAgentCore } from '../agent-core.js';
import { ApprovalBroker } from './approval-broker.js';

const writeNotes = [
  { toolCalls: [call('w1', 'write_file', { path: 'notes.txt', content: 'hello\n' })] },
  { text: 'written' },
];

/** The request the core's next approval waits on in the broker, once the turn asks. */
async function nextWaitingApproval(core: AgentCore, sessionId: string): Promise<ApprovalRequest> {
  const approvalId = await new Promise<string>((resolve) => {
    const stop = core.subscribe((event) => {
      if (event.type !== 'approval.requested' || event.sessionId !== sessionId) return;
      stop();
      resolve(event.approvalId);
    });
  });
  // The event is persisted just before the core calls the broker's handler.
  for (;;) {
    const waiting = core.approvals?.waiting(sessionId, approvalId);
    if (waiting) return waiting;
    await nextTurn();
  }
}

describe('ApprovalBroker as a core option', () => {
  it('holds the turn until an answer comes through core.approvals, then runs the call', async () => {
    const approvals = new ApprovalBroker();
    const { core, session, workspace } = await createHarness({ approvals, responses: writeNotes });
    expect(core.approvals).toBe(approvals);

    const turn = core.runTurn({ sessionId: session.id, prompt: 'write notes' });
    const request = await nextWaitingApproval(core, session.id);
    expect(request).toMatchObject({ sessionId: session.id, toolName: 'write_file', risk: 'workspace-write' });
    expect(await core.sessions.listApprovals(session.id)).toHaveLength(1);
    expect(existsSync(join(workspace, 'notes.txt'))).toBe(false);
    // An answer names its session: the same id in another session answers nothing.
    expect(core.approvals!.answer('another-session', request.approvalId, 'allow')).toBe(false);

    expect(core.approvals!.answer(session.id, request.approvalId, 'allow')).toBe(true);
    expect((await turn).status).toBe('completed');
    expect(existsSync(join(workspace, 'notes.txt'))).toBe(true);
    expect(core.approvals!.waiting(session.id, request.approvalId)).toBeUndefined();
    expect(await core.sessions.listApprovals(session.id)).toEqual([]);
  });

  it('denies the call when the turn is cancelled while it waits', async () => {
    const { core, session, workspace, eventsOf } = await createHarness({
      approvals: new ApprovalBroker(),
      responses: writeNotes,
    });
    const cancel = new AbortController();
    const turn = core.runTurn({ sessionId: session.id, prompt: 'write notes', signal: cancel.signal });
    const request = await nextWaitingApproval(core, session.id);
    cancel.abort();
    expect((await turn).status).toBe('cancelled');
    expect(core.approvals!.waiting(session.id, request.approvalId)).toBeUndefined();
    expect((await eventsOf('tool.completed'))[0]!.result.status).not.toBe('success');
    expect(existsSync(join(workspace, 'notes.txt'))).toBe(false);
  });

  it('has no broker without the option, and refuses a broker and a handler together', async () => {
    const { core, home } = await createHarness({ responses: [{ text: 'hi' }] });
    expect(core.approvals).toBeUndefined();
    expect(() =>
      createAgentCore({
        db: home.db,
        provider: createScriptedProvider({ script: { responses: [] } }),
        checkpoints: home.checkpoints,
        builtinTools: [],
        approvals: new ApprovalBroker(),
        approvalHandler: async () => 'allow',
      }),
    ).toThrow(/approvalHandler or approvals \(a broker\), not both/);
  });
});
