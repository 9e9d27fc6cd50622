import { join } from 'node:path';
import { startLineChild, testdir } from '@clawsmith/test-utils';
import { testDatabaseUrl } from '@clawsmith/test-utils/postgres';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './open-database.js';

const fixture = join(import.meta.dirname, '../__fixtures__/migrating-child.ts');
const PROCESSES = 4;

async function migrateFromProcessesAtOnce(location: string): Promise<void> {
  const children = await Promise.all(Array.from({ length: PROCESSES }, () => startLineChild(fixture, [location])));
  for (const child of children) expect(await child.next()).toBe('ready');
  for (const child of children) child.send('go');
  for (const child of children) expect(await child.next()).toBe('migrated');
}

describe('migrateUnderLock', () => {
  it.each([
    ['SQLite', async () => ({ file: join(testdir({}), 'home.db') })],
    ['PostgreSQL', async () => ({ url: await testDatabaseUrl() })],
  ])(
    'lets four processes starting together on %s migrate once',
    async (_engine, locate) => {
      const location = await locate();
      await migrateFromProcessesAtOnce('file' in location ? location.file : location.url);

      const opened = await openDatabase(location);
      try {
        const runs = await opened.db.selectFrom('migrated_by').select('pid').execute();
        expect(runs).toHaveLength(1);
        const applied = await opened.db.selectFrom('fixture_migration').select('name').orderBy('name').execute();
        expect(applied.map((row) => row.name)).toEqual(['0001_once', '0002_second']);
        const rows = await opened.db
          .selectFrom('second_table')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .executeTakeFirstOrThrow();
        expect(Number(rows.count)).toBe(200);
      } finally {
        await opened.close();
      }
      // Four Node processes start tsx and load Kysely together: 13-20 s alone at load 20, more in a full run.
    },
    90_000,
  );
});
