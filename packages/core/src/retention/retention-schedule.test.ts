import type { CheckpointStore } from '@clawsmith/checkpoints';
import { describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../__fixtures__/core-harness.js';
import { coreDatabase } from '../store/open-database.js';
import { SessionStore } from '../store/session-store.js';
import { RetentionSchedule, type RetentionScheduleOptions } from './retention-schedule.js';

/** A schedule over the harness's real stores that counts how often it sums a session's restore points. */
async function scheduleOn(harness: Harness, options: RetentionScheduleOptions) {
  const sums: string[] = [];
  const checkpoints: CheckpointStore = Object.create(harness.home.checkpoints, {
    sessionBytes: {
      value: (sessionId: string) => {
        sums.push(sessionId);
        return harness.home.checkpoints.sessionBytes(sessionId);
      },
    },
  });
  const schedule = new RetentionSchedule(
    { db: harness.home.db, store: new SessionStore(harness.home.db), checkpoints, artifacts: harness.home.artifacts },
    options,
  );
  const turnEnds = async (times: number) => {
    for (let index = 0; index < times; index += 1) {
      schedule.afterTurn(harness.session.id);
      await schedule.idle();
    }
  };
  return { sums, turnEnds };
}

/** The home's last retention run, as another process would have recorded it. */
async function lastRunAgo(harness: Harness, ms: number): Promise<void> {
  await coreDatabase(harness.home.db)
    .updateTable('core_maintenance')
    .set({ last_run_at: Date.now() - ms })
    .where('name', '=', 'retention')
    .execute();
}

describe(RetentionSchedule, () => {
  it('sums a session under its quotas once per quota gap, not after every turn, while no run is due', async () => {
    const harness = await createHarness({ responses: [], retention: false });
    await lastRunAgo(harness, 2 * 60_000);
    const { sums, turnEnds } = await scheduleOn(harness, {});
    await turnEnds(5);
    expect(sums).toEqual([harness.session.id]);
    expect(await harness.eventsOf('retention.completed')).toEqual([]);
    expect(await harness.eventsOf('retention.failed')).toEqual([]);
  });

  it('runs at the first turn that finds the session over a quota, and says why', async () => {
    const harness = await createHarness({ responses: [], retention: false });
    await lastRunAgo(harness, 2 * 60_000);
    const { sums, turnEnds } = await scheduleOn(harness, { checkpoints: { maxBytesPerSession: -1 } });
    await turnEnds(1);
    expect(sums).toEqual([harness.session.id]);
    expect(await harness.eventsOf('retention.completed')).toMatchObject([{ reason: 'quota' }]);
  });

  it('with no quota gap (an interval of 0) sums and runs after every turn', async () => {
    const harness = await createHarness({ responses: [], retention: false });
    const { sums, turnEnds } = await scheduleOn(harness, { intervalMs: 0 });
    await turnEnds(3);
    expect(sums).toHaveLength(3);
    expect(await harness.eventsOf('retention.completed')).toHaveLength(3);
  });
});
