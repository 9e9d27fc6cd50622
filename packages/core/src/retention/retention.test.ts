import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, createHarness } from '../__fixtures__/core-harness.js';
import { runRetention } from './home-retention.js';

const KIB = 1024;

function writes(count: number, prefix: string) {
  return Array.from({ length: count }, (_, index) => [
    {
      toolCalls: [
        call(`${prefix}${index}`, 'write_file', {
          path: `${prefix}${index}.txt`,
          content: `${prefix}${index}`.padEnd(2 * KIB, '.'),
        }),
      ],
    },
    { text: `wrote ${index}` },
  ]).flat();
}

describe('retention after turns', () => {
  it('prunes a session past its quota in the background, keeps the newest points, and says so in an event', async () => {
    const harness = await createHarness({
      permissionMode: 'accept-edits',
      retention: { intervalMs: 0, checkpoints: { maxBytesPerSession: 5 * KIB, keepNewestPerSession: 2 } },
      responses: writes(6, 'a'),
    });
    for (let index = 0; index < 6; index += 1) {
      const turn = await harness.core.runTurn({ sessionId: harness.session.id, prompt: `write ${index}` });
      expect(turn.status).toBe('completed');
    }
    await harness.core.close();
    const runs = await harness.eventsOf('retention.completed');
    expect(runs.length).toBeGreaterThan(0);
    const removed = runs.reduce((sum, event) => sum + Number(event.restorePointsRemoved), 0);
    expect(removed).toBeGreaterThan(0);
    const points = await harness.core.listCheckpoints(harness.session.id);
    expect(points.length).toBe(6 - removed);
    expect(points.at(-1)?.turnId).toBe((await harness.core.listTurns(harness.session.id)).at(-1)?.turnId);
    expect(points.reduce((sum, point) => sum + point.bytes, 0)).toBeLessThanOrEqual(5 * KIB + 2 * 2 * KIB);
    // Undo of a kept point still works: the files it needs are there.
    await harness.core.restore(harness.session.id, points.at(-1)!.turnId, 'files');
    expect(existsSync(join(harness.workspace, 'a5.txt'))).toBe(false);
    expect(existsSync(join(harness.workspace, 'a4.txt'))).toBe(true);
  });

  it('does not run on a home that is not due (a new home waits one interval), and never delays the turn result', async () => {
    const harness = await createHarness({ permissionMode: 'accept-edits', responses: writes(1, 'b') });
    const turn = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'write' });
    expect(turn.status).toBe('completed');
    await harness.core.close();
    expect(await harness.eventsOf('retention.completed')).toEqual([]);
    expect(await harness.eventsOf('retention.failed')).toEqual([]);
  });

  it('records a failing run as retention.failed and leaves the turn and the stores as they were', async () => {
    const harness = await createHarness({
      permissionMode: 'accept-edits',
      retention: { intervalMs: 0, artifacts: { maxAgeMs: -1 } },
      responses: writes(1, 'c'),
    });
    const turn = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'write' });
    expect(turn.status).toBe('completed');
    await harness.core.close();
    const [failed] = await harness.eventsOf('retention.failed');
    expect(failed).toMatchObject({ reason: 'interval', message: expect.stringMatching(/maxAgeMs must be a number/) });
    expect(await harness.core.listCheckpoints(harness.session.id)).toHaveLength(1);
  });
});

describe('runRetention', () => {
  it('over several real sessions: a dry run reports what the run then removes; the newest points of each session stay', async () => {
    const harness = await createHarness({ permissionMode: 'accept-edits', retention: false, responses: [] });
    const sessions = [];
    for (let index = 0; index < 3; index += 1) {
      const extra = await createHarness({
        permissionMode: 'accept-edits',
        retention: false,
        responses: writes(4, `s${index}x`),
        sharedHome: harness.home,
      });
      for (let turn = 0; turn < 4; turn += 1)
        await extra.core.runTurn({ sessionId: extra.session.id, prompt: `turn ${turn}` });
      sessions.push(extra.session.id);
    }
    const policy = { checkpoints: { maxBytesTotal: 4 * 2 * KIB, keepNewestPerSession: 1 } };
    const dry = await runRetention({ ...harness.home, policy, dryRun: true });
    expect(dry.checkpoints.deletedRestorePoints.length).toBe(8);
    for (const sessionId of sessions)
      expect(await harness.home.checkpoints.listRestorePoints(sessionId)).toHaveLength(4);
    const real = await runRetention({ ...harness.home, policy });
    expect(real.checkpoints.deletedRestorePoints.length).toBe(8);
    expect(real.checkpoints.keptRestorePoints).toBe(4);
    for (const sessionId of sessions) {
      const kept = await harness.home.checkpoints.listRestorePoints(sessionId);
      expect(kept.length).toBeGreaterThanOrEqual(1);
    }
  });
});
