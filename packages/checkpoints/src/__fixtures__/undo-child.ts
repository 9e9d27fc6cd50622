// Child process for crash tests: runs undoFiles or a batch of turns against a shared database.
// Usage: undo-child.ts undo <db> <session> <turn> [pause-after-entries]
//        undo-child.ts undo-measured <db> <session> <turn>   (prints how far the peak RSS rose)
//        undo-child.ts turns <db> <workspace> <session> <count> <prefix>
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCheckpointStore } from '../index.js';
import { openDatabaseAt } from './tool-simulator.js';

const [mode, file, ...rest] = process.argv.slice(2);
const db = await openDatabaseAt(file!);
const store = createCheckpointStore({ db });

if (mode === 'undo') {
  const [sessionId, turnId, pauseAfter] = rest;
  const pauseAt = pauseAfter === undefined ? -1 : Number(pauseAfter);
  try {
    const result = await store.undoFiles(sessionId!, turnId!, {
      onProgress: async ({ index }) => {
        if (index === 0) process.stdout.write('started\n');
        if (index === pauseAt) {
          process.stdout.write('paused\n');
          await new Promise(() => setInterval(() => undefined, 1000));
        }
      },
    });
    process.stdout.write(`restored ${result.restored.length}\n`);
  } catch (error) {
    process.stdout.write(`error ${(error as { code?: string }).code}\n`);
  }
} else if (mode === 'undo-measured') {
  // The peak resident size is reset just before the undo (Linux: 5 into clear_refs), so what it
  // rose by is what the undo itself held at its busiest, bodies and driver buffers included. Run
  // with --expose-gc: garbage is collected every 10 ms, so the figure is what the undo
  // holds rather than what the collector has not yet freed. (Every 50 ms, a quiet machine restored
  // so many pieces between two collections that the freed ones alone raised the peak by 26-28 MB
  // for an 80 MiB file, at the test's bound; every 10 ms, 14.5-15 MB.)
  const [sessionId, turnId] = rest;
  const collect = (globalThis as { gc?: () => void }).gc;
  const collecting = collect === undefined ? undefined : setInterval(collect, 10);
  await store.listRestorePoints(sessionId!);
  const status = (field: string) =>
    Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;
  writeFileSync('/proc/self/clear_refs', '5');
  const before = status('VmRSS');
  const result = await store.undoFiles(sessionId!, turnId!);
  clearInterval(collecting);
  process.stdout.write(`${JSON.stringify({ restored: result.restored, peakRise: status('VmHWM') - before })}\n`);
} else if (mode === 'turns') {
  const [workspace, sessionId, count, prefix] = rest;
  for (let index = 0; index < Number(count); index += 1) {
    const turn = await store.beginTurn({
      sessionId: sessionId!,
      turnId: `${prefix}-${index}`,
      workspaceRoot: workspace!,
      messageCount: index,
      eventSequence: index,
      todoSnapshot: null,
    });
    const path = `${prefix}-${index}.txt`;
    await turn.recorder.beforeChange(path, { state: 'absent' });
    writeFileSync(join(workspace!, path), `${prefix} ${index}\n`);
    await turn.recorder.afterChange(path, {
      state: 'file',
      sha256: createHash('sha256').update(`${prefix} ${index}\n`).digest('hex'),
    });
    await turn.complete();
  }
  process.stdout.write('done\n');
}
await db.destroy();
