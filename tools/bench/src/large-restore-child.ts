// Child of large-restore.bench.ts: undoes one turn of a home (SQLite folder or PostgreSQL URL) and
// prints the undo's wall time and how far its peak resident size rose above what it was before.
// Usage: large-restore-child.ts <home-folder> <database-url or -> <session> <turn>
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { openClawsmithHome } from '@clawsmith/core';

const [folder, databaseUrl, sessionId, turnId] = process.argv.slice(2);
const home = await openClawsmithHome(folder!, databaseUrl === '-' ? {} : { databaseUrl: databaseUrl! });
try {
  await home.checkpoints.listRestorePoints(sessionId!);
  const status = (field: string) =>
    Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;
  // Linux: 5 into clear_refs resets the peak, so the rise is the undo's own.
  writeFileSync('/proc/self/clear_refs', '5');
  const before = status('VmRSS');
  const started = performance.now();
  const result = await home.checkpoints.undoFiles(sessionId!, turnId!);
  const ms = performance.now() - started;
  process.stdout.write(
    `${JSON.stringify({ restored: result.restored.length, ms, peakRise: status('VmHWM') - before, peak: status('VmHWM') })}\n`,
  );
} finally {
  await home.close();
}
