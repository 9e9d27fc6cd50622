import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from './statement-cache.js';

function countingDatabase() {
  const database = new Database(':memory:');
  const prepared: string[] = [];
  return {
    prepared,
    counting: {
      prepare: (text: string) => {
        prepared.push(text);
        return database.prepare(text);
      },
      close: () => database.close(),
    },
  };
}

describe(withStatementCache, () => {
  it('prepares each SQL text once, and still sees a table changed under a kept statement', async () => {
    const { prepared, counting } = countingDatabase();
    const db = new Kysely<{ item: { name: string; size?: number } }>({
      dialect: new SqliteDialect({ database: withStatementCache(counting) }),
    });
    await sql`create table item (name text)`.execute(db);
    for (const name of ['a', 'b', 'c']) await sql`insert into item (name) values (${name})`.execute(db);
    expect(prepared.filter((text) => text.startsWith('insert'))).toHaveLength(1);
    const select = () => sql<{ name: string; size?: number | null }>`select * from item order by name`.execute(db);
    expect((await select()).rows).toEqual([{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
    await sql`alter table item add column size integer`.execute(db);
    const { rows } = await select();
    expect(rows).toEqual([
      { name: 'a', size: null },
      { name: 'b', size: null },
      { name: 'c', size: null },
    ]);
    expect(prepared.filter((text) => text.startsWith('select'))).toHaveLength(1);
    await db.destroy();
  });

  it('keeps at most `capacity` statements, dropping the least recently used', () => {
    const { prepared, counting } = countingDatabase();
    const cached = withStatementCache(counting, 2);
    for (const text of ['select 1', 'select 2', 'select 1', 'select 3', 'select 1', 'select 2']) cached.prepare(text);
    expect(prepared).toEqual(['select 1', 'select 2', 'select 3', 'select 2']);
    cached.close();
  });
});
