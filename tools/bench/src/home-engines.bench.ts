// The same store work on a SQLite home and on a PostgreSQL home (a real server this bench starts
// in a temporary folder): appending 100,000 events, reading a page of 200 events from a
// 1,000,000-event session, and a one-file checkpoint. Printed side by side, SQLite the reference.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openClawsmithHome, type ClawsmithHome } from '@clawsmith/core';
import { SessionStore } from '@clawsmith/core/testing';
import { createTestDatabase, startPostgresServer } from '@clawsmith/test-utils/postgres-server';
import { sql } from 'kysely';
import { measure, report, timingOf, type Timing } from './measure.js';

const APPENDED = 100_000;
const BATCH = 100;
const LARGE_SESSION = 1_000_000;
const PAGE = 200;

const scratch = mkdtempSync(join(tmpdir(), 'clawsmith-bench-engines-'));
const server = await startPostgresServer();

async function openHome(engine: 'sqlite' | 'postgres'): Promise<ClawsmithHome> {
  const folder = mkdtempSync(join(scratch, `${engine}-`));
  return engine === 'sqlite'
    ? openClawsmithHome(folder)
    : openClawsmithHome(folder, { databaseUrl: await createTestDatabase(server.url) });
}

const event = (index: number) => ({
  type: 'tool.progress' as const,
  turnId: 'turn-1',
  toolCallId: 'c1',
  toolName: 'bench',
  progress: index,
});

async function appendEvents(home: ClawsmithHome): Promise<Timing[]> {
  const store = new SessionStore(home.db);
  const session = await store.createSession({ workspaceRoot: '/workspace' });
  const batchSamples: number[] = [];
  const started = performance.now();
  for (let offset = 0; offset < APPENDED; offset += BATCH) {
    const start = performance.now();
    await store.appendEvents(
      session.id,
      Array.from({ length: BATCH }, (_, index) => event(offset + index)),
    );
    batchSamples.push(performance.now() - start);
  }
  const total = performance.now() - started;
  const singles = await measure(
    `${home.engine}: append 1 event`,
    () => store.appendEvent(session.id, event(0)),
    200,
    20,
  );
  return [
    {
      label: `${home.engine}: append ${APPENDED} events in batches of ${BATCH} (total)`,
      medianMs: total,
      p90Ms: total,
      runs: 1,
    },
    timingOf(`${home.engine}: append a batch of ${BATCH}`, batchSamples),
    singles,
  ];
}

/** Fills one session with a million events in the database itself, then reads pages of 200. */
async function readPage(home: ClawsmithHome): Promise<Timing> {
  const store = new SessionStore(home.db);
  const session = await store.createSession({ workspaceRoot: '/workspace' });
  const payload = JSON.stringify({ toolCallId: 'c1', toolName: 'bench', progress: 1 });
  const stamp = new Date().toISOString();
  if (home.engine === 'postgres')
    await sql`insert into session_event (session_id, sequence, type, turn_id, payload_json, created_at)
      select ${session.id}, n, 'tool.progress', 'turn-1', ${payload}, ${stamp} from generate_series(1, ${LARGE_SESSION}) as n`.execute(
      home.db,
    );
  else
    await sql`with recursive numbers(n) as (select 1 union all select n + 1 from numbers where n < ${LARGE_SESSION})
      insert into session_event (session_id, sequence, type, turn_id, payload_json, created_at)
      select ${session.id}, n, 'tool.progress', 'turn-1', ${payload}, ${stamp} from numbers`.execute(home.db);
  if (home.engine === 'postgres') await sql`analyze session_event`.execute(home.db);
  let after = 0;
  return measure(
    `${home.engine}: page of ${PAGE} of a ${LARGE_SESSION}-event session`,
    async () => {
      after = (after + 48_611) % (LARGE_SESSION - PAGE);
      const page = await store.listEvents(session.id, { afterSequence: after, limit: PAGE });
      if (page.length !== PAGE) throw new Error(`read ${page.length} events`);
    },
    50,
    5,
  );
}

async function oneFileCheckpoint(home: ClawsmithHome): Promise<Timing> {
  const workspace = mkdtempSync(join(scratch, 'workspace-'));
  const file = join(workspace, 'notes.txt');
  writeFileSync(file, 'x'.repeat(42_000));
  let turn = 0;
  return measure(
    `${home.engine}: one-file checkpoint (begin, record, complete)`,
    async () => {
      turn += 1;
      const checkpoint = await home.checkpoints.beginTurn({
        sessionId: 'bench',
        turnId: `t${turn}`,
        workspaceRoot: workspace,
        todoSnapshot: [],
      });
      await checkpoint.recorder.beforeChange('notes.txt', { state: 'file', content: readFileSync(file), mode: 0o644 });
      const content = `${turn}`.padEnd(42_000, 'y');
      writeFileSync(file, content);
      await checkpoint.recorder.afterChange('notes.txt', {
        state: 'file',
        sha256: createHash('sha256').update(content).digest('hex'),
      });
      await checkpoint.complete();
    },
    50,
    5,
  );
}

try {
  const results = new Map<string, Timing[]>();
  for (const engine of ['sqlite', 'postgres'] as const) {
    const home = await openHome(engine);
    try {
      results.set(engine, [...(await appendEvents(home)), await readPage(home), await oneFileCheckpoint(home)]);
    } finally {
      await home.close();
    }
  }
  const sqlite = results.get('sqlite')!;
  const postgres = results.get('postgres')!;
  for (const [index, reference] of sqlite.entries())
    report(reference.label.replace('sqlite: ', ''), reference, [postgres[index]!]);
} finally {
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
}
