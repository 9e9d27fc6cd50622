// close() and requests in flight: on PostgreSQL a second connection holds a lock on the session
// table, so a `GET /api/sessions` handler waits in the database for as long as the test says.
import { openClawsmithHome } from '@clawsmith/core';
import { testDatabaseEngine } from '@clawsmith/test-utils/postgres';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createWebHarness } from '../__fixtures__/web-harness.js';

describe.runIf(testDatabaseEngine() === 'postgres')('WebServer.close with a request in flight', () => {
  it('resolves only once the handler has finished, so the database can be closed next', async () => {
    const web = await createWebHarness();
    const locker = await openClawsmithHome(web.homePath);
    let release = () => {};
    let locked = () => {};
    const lockHeld = new Promise<void>((resolve) => (locked = resolve));
    const holding = locker.db.transaction().execute(async (transaction) => {
      await sql`LOCK TABLE session IN ACCESS EXCLUSIVE MODE`.execute(transaction);
      locked();
      await new Promise<void>((resolve) => (release = resolve));
    });
    try {
      await lockHeld;
      const request = web.api('/api/sessions').catch((error: unknown) => error);
      // The handler is in flight once PostgreSQL shows its query waiting for the lock.
      await expect
        .poll(
          async () =>
            (
              await sql<{ waiting: number }>`
                SELECT count(*)::int AS waiting FROM pg_stat_activity
                WHERE wait_event_type = 'Lock' AND query LIKE '%from "session"%'`.execute(web.home.db as never)
            ).rows[0]!.waiting,
          { timeout: 20_000 },
        )
        .toBe(1);
      let closed = false;
      const closing = web.server.close().then(() => (closed = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(closed).toBe(false);
      release();
      await closing;
      await holding;
      // The client's connection was closed with the server; what matters is that the handler
      // finished against an open database instead of failing on a closed one.
      await request;
      expect(closed).toBe(true);
    } finally {
      release();
      await holding.catch(() => {});
      await locker.close();
    }
  });
});
