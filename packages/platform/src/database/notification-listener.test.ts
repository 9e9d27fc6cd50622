import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { testDatabaseUrl } from '@clawsmith/test-utils/postgres';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { describe, expect, it, onTestFinished } from 'vitest';
import pg from 'pg';
import {
  canListenForNotifications,
  listenForNotifications,
  NOTIFICATION_LISTENER_APPLICATION,
} from './notification-listener.js';
import { openDatabase } from './open-database.js';

/** A queue of what a listener was told, with a way to wait for the next item. */
function recorder<T>() {
  const items: T[] = [];
  const waiters: (() => void)[] = [];
  return {
    items,
    push(item: T) {
      items.push(item);
      for (const wake of waiters.splice(0)) wake();
    },
    async waitFor(count: number): Promise<T[]> {
      while (items.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
      return items.slice(0, count);
    },
  };
}

async function openPostgres() {
  const opened = await openDatabase({ url: await testDatabaseUrl() });
  onTestFinished(() => opened.close());
  return opened.db;
}

describe('listenForNotifications', () => {
  it('hands over notifications committed by another connection, and none of a rolled-back transaction', async () => {
    const db = await openPostgres();
    const notifications = recorder<string>();
    const listening = recorder<true>();
    const listener = await listenForNotifications(db, {
      channels: ['note_added'],
      onNotification: (channel, payload) => notifications.push(`${channel}:${payload}`),
      onListening: () => listening.push(true),
    });
    onTestFinished(() => listener.close());
    expect(listening.items).toHaveLength(1);

    await db
      .transaction()
      .execute(async (transaction) => {
        await sql`select pg_notify('note_added', 'lost')`.execute(transaction);
        throw new Error('roll back');
      })
      .catch(() => {});
    await sql`select pg_notify('note_added', 'first')`.execute(db);
    await sql`select pg_notify('other_channel', 'ignored')`.execute(db);
    await sql`select pg_notify('note_added', 'second')`.execute(db);

    expect(await notifications.waitFor(2)).toEqual(['note_added:first', 'note_added:second']);
  });

  it('reconnects after its backend is terminated and says so, so that the caller can catch up', async () => {
    const db = await openPostgres();
    const notifications = recorder<string>();
    const listening = recorder<true>();
    const errors = recorder<string>();
    const listener = await listenForNotifications(db, {
      channels: ['note_added'],
      onNotification: (_channel, payload) => notifications.push(payload),
      onListening: () => listening.push(true),
      onConnectionError: (error) => errors.push(error.message),
    });
    onTestFinished(() => listener.close());
    const firstPid = listener.backendPid;
    expect(firstPid).toBeTypeOf('number');
    const shown = await sql<{ application_name: string }>`
      select application_name from pg_stat_activity where pid = ${firstPid}`.execute(db);
    expect(shown.rows[0]?.application_name).toBe(NOTIFICATION_LISTENER_APPLICATION);

    await sql`select pg_terminate_backend(${firstPid})`.execute(db);
    await errors.waitFor(1);
    await listening.waitFor(2);
    expect(listener.backendPid).not.toBe(firstPid);

    await sql`select pg_notify('note_added', 'after reconnect')`.execute(db);
    expect(await notifications.waitFor(1)).toEqual(['after reconnect']);
  });

  it('stops for good on close(): no callback after it, no connection left', async () => {
    const db = await openPostgres();
    let told = 0;
    const listener = await listenForNotifications(db, {
      channels: ['note_added'],
      onNotification: () => (told += 1),
      onListening: () => {},
    });
    const pid = listener.backendPid;
    await listener.close();
    await sql`select pg_notify('note_added', 'too late')`.execute(db);
    // The server ends the backend once it reads the goodbye: wait for that, bounded.
    const deadline = Date.now() + 10_000;
    let left = 1;
    while (left > 0 && Date.now() < deadline) {
      const rows = await sql<{ count: number }>`
        select count(*)::int as count from pg_stat_activity where pid = ${pid}`.execute(db);
      left = rows.rows[0]!.count;
    }
    expect(left).toBe(0);
    expect(told).toBe(0);
  });

  it('refuses a database it cannot listen on with what to use instead, and a channel that is not an identifier', async () => {
    const sqlite = await openDatabase({ file: join(testdir({}), 'home.db') });
    onTestFinished(() => sqlite.close());
    const options = { channels: ['note_added'], onNotification: () => {}, onListening: () => {} };
    await expect(listenForNotifications(sqlite.db, options)).rejects.toThrow(/opened by openPostgresDatabase/);
    const db = await openPostgres();
    await expect(listenForNotifications(db, { ...options, channels: ['x; drop table y'] })).rejects.toThrow(
      /lower-case identifier/,
    );
  });

  it('tells, without trying, which databases it can listen on: PostgreSQL opened here, not SQLite nor a pool of the host', async () => {
    const sqlite = await openDatabase({ file: join(testdir({}), 'home.db') });
    onTestFinished(() => sqlite.close());
    const url = await testDatabaseUrl();
    const postgres = await openDatabase({ url });
    onTestFinished(() => postgres.close());
    const hostsOwn = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url }) }) });
    onTestFinished(() => hostsOwn.destroy());
    expect(canListenForNotifications(postgres.db)).toBe(true);
    expect(canListenForNotifications(sqlite.db)).toBe(false);
    expect(canListenForNotifications(hostsOwn)).toBe(false);
  });

  it('rejects at once, leaving nothing running, when the server cannot be reached', async () => {
    const url = new URL(await testDatabaseUrl());
    const opened = await openDatabase({ url: url.toString() });
    await sql`select 1`.execute(opened.db);
    // The database goes away after opening: the first LISTEN connection fails.
    const admin = await openDatabase({ url: Object.assign(new URL(url), { pathname: '/postgres' }).toString() });
    onTestFinished(() => admin.close());
    await opened.close();
    await sql.raw(`drop database ${url.pathname.slice(1)}`).execute(admin.db);
    await expect(
      listenForNotifications(opened.db, { channels: ['note_added'], onNotification: () => {}, onListening: () => {} }),
    ).rejects.toThrow(/does not exist/);
  });
});
