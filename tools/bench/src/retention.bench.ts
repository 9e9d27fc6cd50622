// Retention over a home of 200 sessions and 5,000 restore points (half of them 40 days old) and
// 2,000 artifacts: a dry run and the real run, beside reading every session's restore points in
// the same run; then how long a turn's first write waits while a run holds the write lock.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openClawsmithHome, runRetention } from '@clawsmith/core';
import { createCheckpointStore } from '@clawsmith/checkpoints';
import { measure, report } from './measure.js';

const SESSIONS = 200;
const POINTS_PER_SESSION = 25;
const ARTIFACTS_PER_SESSION = 10;
const DAY = 24 * 60 * 60 * 1000;

const scratch = mkdtempSync(join(tmpdir(), 'clawsmith-bench-retention-'));
const workspace = join(scratch, 'workspace');
mkdirSync(workspace);
const home = await openClawsmithHome(join(scratch, 'home'));
let clock = Date.now() - 60 * DAY;
const checkpoints = createCheckpointStore({ db: home.db, now: () => clock });
const built = performance.now();
for (let session = 0; session < SESSIONS; session += 1) {
  const sessionId = `session-${session}`;
  for (let point = 0; point < POINTS_PER_SESSION; point += 1) {
    // The first half of every session is 40 days older than the rest.
    clock = Date.now() - (point < POINTS_PER_SESSION / 2 ? 40 : 1) * DAY + point * 1000;
    const turn = await checkpoints.beginTurn({
      sessionId,
      turnId: `t${point}`,
      workspaceRoot: workspace,
      messageCount: point * 2,
      eventSequence: point * 5,
      todoSnapshot: null,
    });
    const path = `s${session}-f${point % 5}.txt`;
    const content = `${sessionId} turn ${point}\n`.repeat(20);
    await turn.recorder.beforeChange(path, { state: 'absent' });
    writeFileSync(join(workspace, path), content);
    await turn.recorder.afterChange(path, {
      state: 'file',
      sha256: createHash('sha256').update(content).digest('hex'),
    });
    await turn.complete();
  }
  for (let artifact = 0; artifact < ARTIFACTS_PER_SESSION; artifact += 1)
    await home.artifacts.write(`log ${artifact} of ${sessionId}\n`.repeat(200), {
      sessionId,
      toolCallId: `c${artifact}`,
    });
}
console.log(
  `built ${SESSIONS * POINTS_PER_SESSION} restore points and ${SESSIONS * ARTIFACTS_PER_SESSION} artifacts in ${((performance.now() - built) / 1000).toFixed(1)} s`,
);

const stores = { checkpoints: home.checkpoints, artifacts: home.artifacts };
const reference = await measure(
  "read every session's restore points",
  async () => {
    for (let session = 0; session < SESSIONS; session += 1)
      await home.checkpoints.listRestorePoints(`session-${session}`);
  },
  5,
  1,
);
const dry = await measure('retention dry run', () => runRetention({ ...stores, dryRun: true }), 5, 1);
const started = performance.now();
const real = await runRetention(stores);
const realMs = performance.now() - started;
report('retention over 200 sessions, 5,000 restore points, 2,000 artifacts', reference, [
  dry,
  { label: 'retention (real run, once)', medianMs: realMs, p90Ms: realMs, runs: 1 },
]);
console.log(
  `real run removed ${real.checkpoints.deletedRestorePoints.length} restore points and ${real.checkpoints.deletedBlobs} blobs, kept ${real.checkpoints.keptRestorePoints}; artifacts: ${real.artifacts?.removed} removed, ${real.artifacts?.kept} kept`,
);
console.log(
  `load average during the run: ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}`,
);
await home.close();
rmSync(scratch, { recursive: true, force: true });
