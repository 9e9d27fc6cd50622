import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { testDatabaseEngine, testDatabaseUrl } from '@clawsmith/test-utils/postgres';
import { openPostgresDatabase } from '@clawsmith/platform';
import { sql } from 'kysely';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openClawsmithHome } from '../clawsmith-home.js';
import { SessionStore } from './session-store.js';

/** Runs `statements` on `url` as the user in it (the run's superuser: the home's owner). */
async function asOwner(url: string, statements: readonly string[]): Promise<void> {
  const { db } = await openPostgresDatabase(url);
  try {
    for (const statement of statements) await sql.raw(statement).execute(db);
  } finally {
    await db.destroy();
  }
}

/**
 * The grants README "A shared home on PostgreSQL" gives a worker: it owns nothing, creates
 * nothing, and reads and writes the rows of an already migrated home.
 */
function workerGrants(role: string, database: string): string[] {
  return [
    `create role ${role} login password '${role}' nosuperuser nocreatedb nocreaterole noinherit`,
    `grant connect on database ${database} to ${role}`,
    `grant usage on schema public to ${role}`,
    `grant select, insert, update, delete on all tables in schema public to ${role}`,
    `grant usage, select on all sequences in schema public to ${role}`,
  ];
}

function urlAs(url: string, role: string): string {
  const parsed = new URL(url);
  parsed.username = role;
  parsed.password = role;
  return parsed.toString();
}

describe.runIf(testDatabaseEngine() === 'postgres')('a least-privilege worker role', () => {
  it('runs sessions, restores files and keeps artifacts on a home its owner migrated, and can create nothing', async () => {
    const url = await testDatabaseUrl();
    const database = new URL(url).pathname.slice(1);
    const role = `clawsmith_worker_${randomBytes(4).toString('hex')}`;
    const home = testdir({});
    // The owner (the deploy step) migrates; the worker only gets the rows.
    await (await openClawsmithHome(home, { databaseUrl: url })).close();
    await asOwner(url, workerGrants(role, database));
    onTestFinished(() => asOwner(url, [`drop owned by ${role}`, `drop role ${role}`]));

    const worker = await openClawsmithHome(home, { databaseUrl: urlAs(url, role) });
    onTestFinished(() => worker.close());
    const sessions = new SessionStore(worker.db);
    const session = await sessions.createSession({ workspaceRoot: '/workspace' });
    await sessions.appendEvent(session.id, { type: 'session.created', workspaceRoot: '/workspace' });
    expect((await sessions.listEvents(session.id)).map((event) => event.type)).toEqual(['session.created']);

    const workspace = testdir({ 'notes.txt': 'first\n' });
    const turn = await worker.checkpoints.beginTurn({ sessionId: session.id, turnId: 't1', workspaceRoot: workspace });
    await turn.recorder.beforeChange('notes.txt', { state: 'file', content: Buffer.from('first\n'), mode: 0o644 });
    writeFileSync(join(workspace, 'notes.txt'), 'second\n');
    await turn.recorder.afterChange('notes.txt', {
      state: 'file',
      sha256: createHash('sha256').update('second\n').digest('hex'),
    });
    await turn.complete();
    expect((await worker.checkpoints.undoFiles(session.id, 't1')).restored).toEqual(['notes.txt']);
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('first\n');

    const { artifact } = await worker.artifacts.externalize('line\n'.repeat(20_000), {
      sessionId: session.id,
      toolCallId: 'call-1',
    });
    expect(artifact).toBeDefined();
    expect(readFileSync(join(home, 'artifacts', artifact!.id)).byteLength).toBe(100_000);

    await expect(
      worker.db.schema.createTable('worker_table').addColumn('id', 'integer').execute(),
    ).rejects.toMatchObject({
      code: '42501',
    });
    await expect(sql.raw(`create database ${role}_own`).execute(worker.db)).rejects.toMatchObject({ code: '42501' });
  });
});
