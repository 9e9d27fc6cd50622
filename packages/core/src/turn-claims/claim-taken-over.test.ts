import type { ToolModelMessage } from '@clawsmith/providers';
import { describe, expect, it } from 'vitest';
import { ClaimingProcess, openSharedHome, untilClaimRunsOut } from '../__fixtures__/claiming-process.js';
import { CHILD_TIMEOUT } from '../__fixtures__/killed-child.js';
import type { AgentCore } from '../agent-core.js';
import type { SessionStore } from '../store/session-store.js';

const LOST = 'TURN cancelled turn_claim_lost ';

/** Starts a holder on machine-b, stops it (SIGSTOP) inside its tool and lets another process take the session over. */
async function takeOverStoppedHolder(): Promise<{
  core: AgentCore;
  store: SessionStore;
  sessionId: string;
  holder: ClaimingProcess;
}> {
  const { home, core, store, sessionId } = await openSharedHome();
  const holder = new ClaimingProcess(home, sessionId, { durationMs: 2_000, renewEveryMs: 400 }, 'machine-b');
  await holder.waitFor('READY');
  holder.child.stdin.write('go\n');
  await holder.waitFor('TOOL_STARTED');
  holder.child.kill('SIGSTOP');
  await untilClaimRunsOut(store, sessionId);
  expect((await core.runTurn({ sessionId, prompt: 'take over' })).status).toBe('completed');
  return { core, store, sessionId, holder };
}

/** The holder's turn reads as the taker left it: nothing of it after `session.recovered`, one result per call. */
async function expectTakersRecordStands(core: AgentCore, store: SessionStore, sessionId: string): Promise<void> {
  const turns = await core.listTurns(sessionId);
  expect(turns.map((turn) => [turn.status, turn.ownerHost])).toEqual([
    ['interrupted', 'machine-b'],
    ['completed', expect.not.stringMatching(/^machine-b$/)],
  ]);
  const heldTurn = turns[0]!.turnId;
  const events = await core.listEvents(sessionId);
  const recovered = events.findIndex((event) => event.type === 'session.recovered');
  expect(recovered).toBeGreaterThan(0);
  expect(events.slice(recovered).filter((event) => event.turnId === heldTurn)).toEqual([]);
  expect(events.at(-1)).toMatchObject({ type: 'turn.completed', turnId: turns[1]!.turnId, status: 'completed' });
  expect(
    events.filter((event) => event.type === 'turn.completed' && event.turnId === heldTurn).map((event) => event),
  ).toMatchObject([{ status: 'interrupted', recovered: true }]);
  // The held call has exactly one result (the taker's), so the history can be sent again.
  const results = (await core.listMessages(sessionId)).filter(
    (message): message is ToolModelMessage => message.role === 'tool',
  );
  expect(results.map((message) => message.toolResult?.code)).toEqual(['interrupted']);
  expect((await store.readClaim(sessionId)).claim).toBeUndefined();
}

describe('a claim taken over', () => {
  it(
    'a live holder whose lease ran out while it was stopped learns at its next renewal: its turn returns cancelled with turn_claim_lost and writes nothing after the taker',
    async () => {
      const { core, store, sessionId, holder } = await takeOverStoppedHolder();
      holder.child.kill('SIGCONT');
      const line = await holder.outcome();
      expect(line.startsWith(LOST)).toBe(true);
      expect(line).toContain(`This process no longer holds session ${sessionId}: its lease ran out`);
      expect(line).toContain('closed this turn as interrupted');
      expect(line).toContain('run the turn again if it is still needed');
      await holder.exited;
      await expectTakersRecordStands(core, store, sessionId);
    },
    CHILD_TIMEOUT,
  );

  it(
    "a holder whose tool returns the moment it resumes, racing its heartbeat, writes nothing after the taker's recovery: the database refuses its writes and its end",
    async () => {
      const { core, store, sessionId, holder } = await takeOverStoppedHolder();
      // Its tool returns as soon as it runs again, racing its own heartbeat to the turn's end.
      holder.child.stdin.end();
      holder.child.kill('SIGCONT');
      expect((await holder.outcome()).startsWith(LOST)).toBe(true);
      await holder.exited;
      await expectTakersRecordStands(core, store, sessionId);
    },
    CHILD_TIMEOUT,
  );
});

describe('SessionStore.endTurn', () => {
  it("refuses, writing nothing, the end of a turn whose claim another owner took over; the holder's own end commits", async () => {
    const { store, sessionId } = await openSharedHome();
    const holder = { host: 'machine-b', bootId: 'boot-b', pid: 4242, instance: 'holder' };
    const taker = { host: 'machine-c', bootId: 'boot-c', pid: 4343, instance: 'taker' };
    const turn = { sessionId, turnId: 'held-turn', status: 'completed' as const };
    const end = { type: 'turn.completed' as const, turnId: turn.turnId, status: turn.status, steps: 1 };
    await store.startTurn({
      sessionId,
      turnId: turn.turnId,
      prompt: 'hold',
      activation: [],
      startedAt: new Date().toISOString(),
      owner: holder,
    });
    expect(await store.takeClaim(sessionId, holder, undefined, 1)).toBe(true);
    const { claim } = await store.readClaim(sessionId);
    await untilClaimRunsOut(store, sessionId, 5);
    expect(await store.takeClaim(sessionId, taker, claim, 60_000)).toBe(true);
    await store.completeTurn(sessionId, turn.turnId, 'interrupted');
    await store.appendEvent(sessionId, { ...end, status: 'interrupted', recovered: true });
    const before = await store.lastSequence(sessionId);

    const refused = await store.endTurn(sessionId, turn.turnId, turn.status, holder, end).then(
      () => undefined,
      (error: unknown) => error as { code?: string },
    );
    expect(refused?.code).toBe('turn_claim_lost');
    expect(await store.lastSequence(sessionId)).toBe(before);
    expect((await store.getTurn(sessionId, turn.turnId))?.status).toBe('interrupted');
    expect((await store.readClaim(sessionId)).claim?.owner.instance).toBe('taker');

    // The taker's own end of a turn it runs commits and frees the session.
    await store.startTurn({
      sessionId,
      turnId: 'taker-turn',
      prompt: 'next',
      activation: [],
      startedAt: new Date().toISOString(),
      owner: taker,
    });
    await store.endTurn(sessionId, 'taker-turn', 'completed', taker, { ...end, turnId: 'taker-turn' });
    expect(await store.lastSequence(sessionId)).toBe(before + 1);
    expect((await store.getTurn(sessionId, 'taker-turn'))?.status).toBe('completed');
    expect((await store.readClaim(sessionId)).claim).toBeUndefined();
  });
});
