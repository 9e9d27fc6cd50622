// How long an event appended by another process takes to reach an SSE client of the web server,
// on a SQLite home (the server polls PRAGMA data_version every 25 ms: the reference) and on a
// PostgreSQL home (the appending transaction NOTIFYs, the server LISTENs), with a real PostgreSQL
// this bench starts in a temporary folder. 40 appends per engine, 100 ms apart.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentCore, createBuiltinTools, openClawsmithHome } from '@clawsmith/core';
import { createScriptedProvider } from '@clawsmith/providers';
import { readSessionEvent } from '@clawsmith/session-protocol';
import { createTestDatabase, startPostgresServer } from '@clawsmith/test-utils/postgres-server';
import { startWebServer } from '@clawsmith/web';

const SAMPLES = 40;
const scratch = mkdtempSync(join(tmpdir(), 'clawsmith-bench-live-'));
const postgres = await startPostgresServer();

/** Latencies (ms, sorted) of SAMPLES events appended by a child process, as one SSE client sees them. */
async function crossProcessLatencies(engine: 'sqlite' | 'postgres'): Promise<number[]> {
  const homePath = mkdtempSync(join(scratch, `${engine}-`));
  const databaseUrl = engine === 'postgres' ? await createTestDatabase(postgres.url) : undefined;
  const home = await openClawsmithHome(homePath, databaseUrl ? { databaseUrl } : {});
  const core = createAgentCore({
    db: home.db,
    provider: createScriptedProvider({ script: { responses: [] } }),
    checkpoints: home.checkpoints,
    artifacts: home.artifacts,
    builtinTools: createBuiltinTools(),
  });
  const session = await core.createSession({ workspaceRoot: homePath });
  const server = await startWebServer({ core, home });
  const response = await fetch(`${server.origin}/api/sessions/${session.id}/events/stream`, {
    headers: { authorization: `Bearer ${server.token}` },
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  // The writer: another process, on its own home folder (another machine, for PostgreSQL).
  const writerHome = mkdtempSync(join(scratch, `${engine}-writer-`));
  const child = spawn(
    process.execPath,
    [
      ...process.execArgv,
      join(import.meta.dirname, 'web-append-child.ts'),
      engine === 'sqlite' ? homePath : writerHome,
      session.id,
      String(SAMPLES),
      '100',
    ],
    { stdio: 'inherit', env: { ...process.env, CLAWSMITH_DATABASE_URL: databaseUrl ?? '' } },
  );
  const finished = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', () => resolve());
  });
  const latencies: number[] = [];
  let buffer = '';
  while (latencies.length < SAMPLES) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let boundary: number;
    while ((boundary = buffer.indexOf('\n\n')) !== -1) {
      const data = buffer
        .slice(0, boundary)
        .split('\n')
        .find((line) => line.startsWith('data: '));
      buffer = buffer.slice(boundary + 2);
      if (!data) continue;
      const event = readSessionEvent(JSON.parse(data.slice(6)));
      const sent = event.type === 'todos.updated' ? /^sent at (.+)$/.exec(event.todos[0]?.content ?? '') : null;
      if (sent) latencies.push(performance.timeOrigin + performance.now() - Number(sent[1]));
    }
  }
  await reader.cancel();
  await finished;
  await server.close();
  await core.close();
  await home.close();
  if (latencies.length < SAMPLES) throw new Error(`${engine}: only ${latencies.length} of ${SAMPLES} events arrived`);
  return latencies.sort((left, right) => left - right);
}

const median = (values: number[]) => values[Math.floor(values.length / 2)]!;
const p90 = (values: number[]) => values[Math.floor(values.length * 0.9)]!;
try {
  const sqlite = await crossProcessLatencies('sqlite');
  const postgresLatencies = await crossProcessLatencies('postgres');
  console.log('\n## an event appended by another process reaching an SSE client');
  console.log('| home | how the server learns of it | median ms | p90 ms | ratio to SQLite |');
  console.log('|---|---|---:|---:|---:|');
  console.log(
    `| SQLite | PRAGMA data_version poll, 25 ms | ${median(sqlite).toFixed(1)} | ${p90(sqlite).toFixed(1)} | 1.00x |`,
  );
  console.log(
    `| PostgreSQL | NOTIFY in the appending transaction, LISTEN | ${median(postgresLatencies).toFixed(1)} | ${p90(postgresLatencies).toFixed(1)} | ${(median(postgresLatencies) / median(sqlite)).toFixed(2)}x |`,
  );
} finally {
  await postgres.stop();
  rmSync(scratch, { recursive: true, force: true });
}
