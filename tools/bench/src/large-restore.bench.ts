// A restore of one 100 MB file on a SQLite home and on a PostgreSQL home (a real server this bench
// starts in a temporary folder): recording its pre-image, then the undo in a child process, timed
// with the child's peak resident size. The reference is `cp` of the same file in the same run.
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openClawsmithHome } from '@clawsmith/core';
import { createTestDatabase, startPostgresServer } from '@clawsmith/test-utils/postgres-server';
import { report, type Timing } from './measure.js';

const BYTES = Number(process.env.CLAWSMITH_BENCH_RESTORE_BYTES ?? 100_000_000);
const RUNS = Number(process.env.CLAWSMITH_BENCH_RESTORE_RUNS ?? 3);
const MB = 1_000_000;

const scratch = mkdtempSync(join(tmpdir(), 'clawsmith-bench-restore-'));
const server = await startPostgresServer();
const original = randomBytes(BYTES);
const originalSha256 = createHash('sha256').update(original).digest('hex');
const childScript = join(import.meta.dirname, 'large-restore-child.ts');

interface Run {
  readonly recordMs: number;
  readonly restoreMs: number;
  readonly peakRise: number;
  readonly peak: number;
}

async function oneRun(engine: 'sqlite' | 'postgres', index: number): Promise<Run> {
  const folder = mkdtempSync(join(scratch, `${engine}-home-`));
  const workspace = mkdtempSync(join(scratch, `${engine}-workspace-`));
  const databaseUrl = engine === 'postgres' ? await createTestDatabase(server.url) : undefined;
  const file = join(workspace, 'large.bin');
  writeFileSync(file, original);
  const home = await openClawsmithHome(folder, databaseUrl === undefined ? {} : { databaseUrl });
  let recordMs: number;
  try {
    const started = performance.now();
    const turn = await home.checkpoints.beginTurn({ sessionId: 's', turnId: `t${index}`, workspaceRoot: workspace });
    await turn.recorder.beforeChange('large.bin', { state: 'file', content: readFileSync(file), mode: 0o644 });
    writeFileSync(file, 'small now\n');
    await turn.recorder.afterChange('large.bin', {
      state: 'file',
      sha256: createHash('sha256').update('small now\n').digest('hex'),
    });
    await turn.complete();
    recordMs = performance.now() - started;
  } finally {
    await home.close();
  }
  const output = execFileSync(
    process.execPath,
    ['--conditions=@clawsmith/source', '--import', 'tsx', childScript, folder, databaseUrl ?? '-', 's', `t${index}`],
    { encoding: 'utf8' },
  );
  const measured = JSON.parse(output.trim().split('\n').pop()!) as { ms: number; peakRise: number; peak: number };
  const restored = createHash('sha256').update(readFileSync(file)).digest('hex');
  if (restored !== originalSha256) throw new Error(`${engine}: the restored file differs`);
  rmSync(workspace, { recursive: true, force: true });
  return { recordMs, restoreMs: measured.ms, peakRise: measured.peakRise, peak: measured.peak };
}

function copyReference(): Timing {
  const from = join(scratch, 'reference.bin');
  writeFileSync(from, original);
  const samples: number[] = [];
  for (let index = 0; index < RUNS; index += 1) {
    const to = join(scratch, `copy-${index}.bin`);
    const started = performance.now();
    execFileSync('cp', [from, to]);
    execFileSync('sync', ['-f', to]);
    samples.push(performance.now() - started);
    rmSync(to);
  }
  return summary(`cp + sync of ${BYTES / MB} MB`, samples);
}

function summary(label: string, samples: readonly number[]): Timing {
  const sorted = [...samples].sort((left, right) => left - right);
  return {
    label,
    medianMs: sorted[Math.floor(sorted.length / 2)]!,
    p90Ms: sorted[sorted.length - 1]!,
    runs: sorted.length,
  };
}

try {
  const reference = copyReference();
  const rows: Timing[] = [];
  const peaks: string[] = [];
  for (const engine of ['sqlite', 'postgres'] as const) {
    const runs: Run[] = [];
    for (let index = 0; index < RUNS; index += 1) runs.push(await oneRun(engine, index));
    rows.push(
      summary(
        `${engine}: record the ${BYTES / MB} MB pre-image`,
        runs.map((run) => run.recordMs),
      ),
    );
    rows.push(
      summary(
        `${engine}: restore it (undo in a child)`,
        runs.map((run) => run.restoreMs),
      ),
    );
    peaks.push(
      `| ${engine} | ${runs.map((run) => (run.peakRise / MB).toFixed(1)).join(', ')} | ${runs
        .map((run) => (run.peak / MB).toFixed(1))
        .join(', ')} |`,
    );
  }
  report(`restore of one ${BYTES / MB} MB file (max ms is the p90 column)`, reference, rows);
  console.log(`\n| engine | undo's peak RSS rise, MB (each run) | child's peak RSS, MB |`);
  console.log('|---|---|---|');
  for (const line of peaks) console.log(line);
} finally {
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
}
