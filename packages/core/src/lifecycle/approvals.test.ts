import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, createHarness } from '../__fixtures__/core-harness.js';
import type { ApprovalAnswer, ApprovalRequest } from '@clawsmith/tool-host';

const writes = (count: number) =>
  Array.from({ length: count }, (_, index) =>
    call(`w${index}`, 'write_file', { path: `f${index}.txt`, content: `${index}` }),
  );

describe('approvals', () => {
  it('persists a pending approval while the person decides, and runs the call when allowed', async () => {
    let pendingWhileAsking = -1;
    const ref: { harness?: Awaited<ReturnType<typeof createHarness>> } = {};
    const handler = async (request: ApprovalRequest): Promise<ApprovalAnswer> => {
      pendingWhileAsking = (await ref.harness!.core.listEvents(request.sessionId)).filter(
        (event) => event.type === 'approval.requested',
      ).length;
      expect(request).toMatchObject({
        toolName: 'write_file',
        risk: 'workspace-write',
        reason: 'mode default: workspace-write needs approval',
      });
      return 'allow';
    };
    const harness = await createHarness({
      approvalHandler: handler,
      responses: [{ toolCalls: writes(1) }, { text: 'ok' }],
    });
    ref.harness = harness;
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'write' });
    expect(pendingWhileAsking).toBe(1);
    expect(existsSync(join(harness.workspace, 'f0.txt'))).toBe(true);
    expect(await harness.home.db.selectFrom('session_approval').selectAll().execute()).toEqual([]);
  });

  it('denies when the person declines, and when there is nobody to ask', async () => {
    const declined = await createHarness({
      approvalHandler: async () => 'deny',
      responses: [{ toolCalls: writes(1) }, { text: 'ok' }],
    });
    await declined.core.runTurn({ sessionId: declined.session.id, prompt: 'write' });
    expect((await declined.eventsOf('tool.completed'))[0]!.result).toMatchObject({
      status: 'denied',
      code: 'permission_denied',
    });
    expect(existsSync(join(declined.workspace, 'f0.txt'))).toBe(false);

    const unattended = await createHarness({ responses: [{ toolCalls: writes(1) }, { text: 'ok' }] });
    await unattended.core.runTurn({ sessionId: unattended.session.id, prompt: 'write' });
    const [event] = await unattended.eventsOf('tool.completed');
    expect(event!.result).toMatchObject({ status: 'denied', code: 'permission_denied' });
    expect(String(event!.output)).toMatch(/non-interactive/);
  });

  it('denies when the approval handler throws (fails closed)', async () => {
    const harness = await createHarness({
      approvalHandler: async () => {
        throw new Error('terminal closed');
      },
      responses: [{ toolCalls: writes(1) }, { text: 'ok' }],
    });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'write' });
    expect((await harness.eventsOf('tool.completed'))[0]!.result).toMatchObject({ status: 'denied' });
    // The denial is the handler's, never attributed to the person.
    const approval = (await harness.eventsOf('tool.decision')).find((event) => event.stage === 'approval');
    expect(approval).toMatchObject({ action: 'deny', reason: 'approval handler failed: terminal closed' });
    expect((await harness.eventsOf('approval.resolved'))[0]).toMatchObject({ answer: 'deny', handlerFailed: true });
    const [message] = (await harness.core.listMessages(harness.session.id)).filter((entry) => entry.role === 'tool');
    expect(message?.role === 'tool' ? message.content : '').toContain('approval handler failed: terminal closed');
    expect(message?.role === 'tool' ? message.content : '').not.toContain('the person declined');
  });

  it('says so when the handler answers something that is not an answer', async () => {
    const harness = await createHarness({
      approvalHandler: async () => 'maybe' as never,
      responses: [{ toolCalls: writes(1) }, { text: 'ok' }],
    });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'write' });
    const approval = (await harness.eventsOf('tool.decision')).find((event) => event.stage === 'approval');
    expect(approval?.reason).toMatch(/^approval handler failed: it answered "maybe"/);
  });

  it('asks once for "always for this session"', async () => {
    let asked = 0;
    const harness = await createHarness({
      approvalHandler: async () => {
        asked += 1;
        return 'allow-session';
      },
      responses: [{ toolCalls: writes(3) }, { text: 'ok' }],
    });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'write' });
    expect(asked).toBe(1);
    for (const index of [0, 1, 2]) expect(existsSync(join(harness.workspace, `f${index}.txt`))).toBe(true);
  });
});
