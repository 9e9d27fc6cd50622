import { createScriptedProvider } from '@clawsmith/providers';
import { defineTool } from '@clawsmith/tool-protocol';
import { createTestdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { createAgentCore } from '../agent-core.js';
import { openClawsmithHome } from '../clawsmith-home.js';
import { ClaimingProcess, openSharedHome, untilClaimRunsOut } from '../__fixtures__/claiming-process.js';
import { CHILD_TIMEOUT } from '../__fixtures__/killed-child.js';
import { SessionStore } from '../store/session-store.js';

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = (await promise.then(
    () => ({ code: 'none', message: 'it was not refused' }),
    (thrown: unknown) => thrown,
  )) as { code: string; message: string };
  return { code: error.code, message: error.message };
}

describe('claimSession', () => {
  it(
    'three machines start a turn of one session at the same moment: one runs it, the others are refused with who holds it',
    async () => {
      const { home, core, store, sessionId } = await openSharedHome();
      const lease = { durationMs: 60_000, renewEveryMs: 15_000 };
      const machines = ['machine-a', 'machine-b', 'machine-c'].map(
        (host) => new ClaimingProcess(home, sessionId, lease, host),
      );
      await Promise.all(machines.map((machine) => machine.waitFor('READY')));
      for (const machine of machines) machine.child.stdin.write('go\n');
      // Each ends up either refused or running its tool (and so holding the session).
      await Promise.all(machines.map((machine) => machine.waitFor('TOOL_STARTED', 'REFUSED ')));
      const winners = machines.filter((machine) => machine.output.includes('TOOL_STARTED'));
      expect(winners).toHaveLength(1);
      const [winner] = winners;
      const winnerHost = ['machine-a', 'machine-b', 'machine-c'][machines.indexOf(winner!)]!;
      for (const loser of machines.filter((machine) => machine !== winner)) {
        const line = await loser.outcome();
        expect(line).toMatch(/^REFUSED turn_in_progress A turn is already running in session /);
        expect(line).toContain(`claimed by process ${winner!.child.pid} on ${winnerHost}`);
      }
      // This machine is refused too, and recovery leaves the live turn alone.
      expect(await refusal(core.runTurn({ sessionId, prompt: 'me too' }))).toMatchObject({ code: 'turn_in_progress' });
      await core.openSession(sessionId);
      expect((await core.listTurns(sessionId)).map((turn) => turn.status)).toEqual(['running']);
      expect(await core.sessions.runsElsewhere(sessionId)).toBe(true);

      winner!.child.stdin.end();
      expect(await winner!.outcome()).toBe('TURN completed');
      await Promise.all(machines.map((machine) => machine.exited));
      const turns = await core.listTurns(sessionId);
      expect(turns.map((turn) => [turn.status, turn.ownerHost, turn.ownerPid])).toEqual([
        ['completed', winnerHost, winner!.child.pid],
      ]);
      expect((await store.readClaim(sessionId)).claim).toBeUndefined();
      expect(await core.sessions.runsElsewhere(sessionId)).toBe(false);
      expect((await core.runTurn({ sessionId, prompt: 'now me' })).status).toBe('completed');
    },
    CHILD_TIMEOUT,
  );

  it(
    'a turn of another machine whose process died is not judged by a local pid: refused until its lease ends, then recovered as interrupted',
    async () => {
      const { home, core, store, sessionId } = await openSharedHome();
      const remote = new ClaimingProcess(home, sessionId, { durationMs: 10_000, renewEveryMs: 2_000 }, 'machine-b');
      await remote.waitFor('READY');
      remote.child.stdin.write('go\n');
      await remote.waitFor('TOOL_STARTED');
      remote.child.kill('SIGKILL');
      await remote.exited;

      // Its pid is dead here, but it names another machine: only its lease can end its claim.
      const refused = await refusal(core.runTurn({ sessionId, prompt: 'too soon' }));
      expect(refused.code).toBe('turn_in_progress');
      expect(refused.message).toContain(`claimed by process ${remote.child.pid} on machine-b`);
      await core.openSession(sessionId);
      expect((await core.listTurns(sessionId)).map((turn) => turn.status)).toEqual(['running']);

      await untilClaimRunsOut(store, sessionId);
      expect(await core.sessions.runsElsewhere(sessionId)).toBe(false);
      const next = await core.runTurn({ sessionId, prompt: 'after the lease' });
      expect(next.status).toBe('completed');
      const turns = await core.listTurns(sessionId);
      expect(turns.map((turn) => [turn.status, turn.ownerHost])).toEqual([
        ['interrupted', 'machine-b'],
        ['completed', turns[1]!.ownerHost],
      ]);
      expect(turns[1]!.ownerHost).not.toBe('machine-b');
      const events = await core.listEvents(sessionId);
      expect(events.filter((event) => event.type === 'session.recovered')).toMatchObject([
        { interruptedCalls: 1, turns: [turns[0]!.turnId] },
      ]);
    },
    CHILD_TIMEOUT,
  );

  it(
    'a process of this machine that died is taken over at once, whatever its lease',
    async () => {
      const { home, core, sessionId } = await openSharedHome();
      const local = new ClaimingProcess(home, sessionId, { durationMs: 600_000, renewEveryMs: 60_000 });
      await local.waitFor('READY');
      local.child.stdin.write('go\n');
      await local.waitFor('TOOL_STARTED');
      expect(await core.sessions.runsElsewhere(sessionId)).toBe(true);
      local.child.kill('SIGKILL');
      await local.exited;

      expect(await core.sessions.runsElsewhere(sessionId)).toBe(false);
      expect((await core.runTurn({ sessionId, prompt: 'take over' })).status).toBe('completed');
      expect((await core.listTurns(sessionId)).map((turn) => turn.status)).toEqual(['interrupted', 'completed']);
    },
    CHILD_TIMEOUT,
  );

  it(
    'the running turn renews its lease: a turn held past several leases is still refused to others, and released when it ends',
    async () => {
      const { home, core, store, sessionId } = await openSharedHome();
      const lease = { durationMs: 2_000, renewEveryMs: 400 };
      const remote = new ClaimingProcess(home, sessionId, lease, 'machine-b');
      await remote.waitFor('READY');
      remote.child.stdin.write('go\n');
      await remote.waitFor('TOOL_STARTED');
      const first = (await store.readClaim(sessionId)).claim!;
      // Wait on the database's clock until the first lease is two leases past.
      await expect
        .poll(async () => (await store.readClaim(sessionId)).databaseNow > first.expiresAt + lease.durationMs, {
          timeout: 60_000,
          interval: 250,
        })
        .toBe(true);
      const renewed = await store.readClaim(sessionId);
      expect(renewed.claim!.expiresAt).toBeGreaterThan(renewed.databaseNow);
      expect(renewed.claim!.claimedAt).toBe(first.claimedAt);
      expect(await refusal(core.runTurn({ sessionId, prompt: 'still held' }))).toMatchObject({
        code: 'turn_in_progress',
      });

      remote.child.stdin.end();
      expect(await remote.outcome()).toBe('TURN completed');
      expect((await store.readClaim(sessionId)).claim).toBeUndefined();
      expect((await core.runTurn({ sessionId, prompt: 'mine now' })).status).toBe('completed');
    },
    CHILD_TIMEOUT,
  );
});

describe('ending a turn', () => {
  it('frees the session at once: when turn.completed is announced, the next turn starts here and no other core sees it held', async () => {
    const homeDir = createTestdir({}, 'clawsmith-home-');
    const workspace = createTestdir({ 'a.txt': 'alpha\n' });
    const opened = await openClawsmithHome(homeDir.path);
    const options = { db: opened.db, checkpoints: opened.checkpoints, builtinTools: [], retention: false } as const;
    const core = createAgentCore({
      ...options,
      provider: createScriptedProvider({ script: { responses: [{ text: 'first' }, { text: 'second' }] } }),
    });
    // Another process's core on the same home, as a second web server would ask.
    const other = createAgentCore({
      ...options,
      provider: createScriptedProvider({ script: { responses: [] } }),
    });
    onTestFinished(async () => {
      await other.close();
      await core.close();
      await opened.close();
      homeDir.remove();
      workspace.remove();
    });
    const store = new SessionStore(opened.db);
    const { id: sessionId } = await core.createSession({ workspaceRoot: workspace.path });
    const seen: { elsewhere: Promise<boolean>; next: Promise<string> }[] = [];
    const unsubscribe = core.subscribe((event) => {
      if (event.type !== 'turn.completed' || seen.length > 0) return;
      // Both from the announcement itself, before the first turn's run has returned.
      seen.push({
        elsewhere: other.sessions.runsElsewhere(sessionId),
        next: core.runTurn({ sessionId, prompt: 'next' }).then((turn) => turn.status),
      });
    });
    onTestFinished(unsubscribe);
    expect((await core.runTurn({ sessionId, prompt: 'first' })).status).toBe('completed');
    expect(seen).toHaveLength(1);
    expect(await seen[0]!.elsewhere).toBe(false);
    expect(await seen[0]!.next).toBe('completed');
    expect((await core.listTurns(sessionId)).map((turn) => turn.status)).toEqual(['completed', 'completed']);
    expect((await store.readClaim(sessionId)).claim).toBeUndefined();
  });
});

describe('a release that fails', () => {
  it('is not swallowed: the failed turn rejects with turn_release_failed, its own error as the cause', async () => {
    const homeDir = createTestdir({}, 'clawsmith-home-');
    const workspace = createTestdir({});
    const opened = await openClawsmithHome(homeDir.path);
    // The home's database goes away under the turn, as when its server is lost mid-turn.
    const loseDatabase = defineTool({
      name: 'lose_database',
      description: 'Closes the home under the turn.',
      risk: 'read',
      capabilities: ['filesystem.read'],
      concurrencySafe: true,
      inputSchema: z.object({}),
      summarize: () => 'lose the database',
      async execute() {
        await opened.close();
        return 'gone';
      },
    });
    const core = createAgentCore({
      db: opened.db,
      provider: createScriptedProvider({
        script: { responses: [{ toolCalls: [{ name: 'lose_database', arguments: {} }] }, { text: 'never' }] },
      }),
      checkpoints: opened.checkpoints,
      builtinTools: [loseDatabase],
      permissionMode: 'full-auto',
      retention: false,
    });
    onTestFinished(() => {
      homeDir.remove();
      workspace.remove();
    });
    const { id: sessionId } = await core.createSession({ workspaceRoot: workspace.path });
    const failure = (await core.runTurn({ sessionId, prompt: 'lose it' }).then(
      () => new Error('the turn did not fail'),
      (thrown: unknown) => thrown,
    )) as Error & { code?: string };
    expect(failure.code).toBe('turn_release_failed');
    expect(failure.message).toContain(`Session ${sessionId} could not be given up`);
    expect(failure.message).toContain('The turn had failed first');
    expect(failure.cause).toBeInstanceOf(Error);
  });
});

describe('resolveTurnLease', () => {
  it('refuses renewals that do not come well within the lease, saying what to change', async () => {
    const { resolveTurnLease } = await import('./session-claim.js');
    expect(resolveTurnLease()).toEqual({ durationMs: 60_000, renewEveryMs: 15_000 });
    expect(resolveTurnLease({ durationMs: 8_000 })).toEqual({ durationMs: 8_000, renewEveryMs: 2_000 });
    expect(() => resolveTurnLease({ durationMs: 1_000, renewEveryMs: 800 })).toThrow(
      /renewEveryMs \(800\) at most half of durationMs \(1000\).*raise durationMs or lower renewEveryMs/,
    );
  });
});
