import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from './statement-cache.js';

function countingDatabase() {
  const database = new Database(':memory:');
  const prepared: string[] = [];
  const counting = {
    prepare: (text: string) => {
      prepared.push(text);
      return database.prepare(text);
    },
    close: () => database.close(),
  };
  return { database, prepared, counting };
}

describe('withStatementCache', () => {
  it('prepares each SQL text once and answers every later query with the same statement', async () => {
    const { prepared, counting } = countingDatabase();
    const db = new Kysely<{ note: { id: number; text: string } }>({
      dialect: new SqliteDialect({ database: withStatementCache(counting) }),
    });
    await sql`create table note (id integer primary key, text text not null)`.execute(db);
    for (let id = 1; id <= 5; id += 1)
      await db
        .insertInto('note')
        .values({ id, text: `n${id}` })
        .execute();
    const rows = await db.selectFrom('note').select(['id', 'text']).orderBy('id').execute();
    expect(rows.map((row) => row.text)).toEqual(['n1', 'n2', 'n3', 'n4', 'n5']);
    const again = await db.selectFrom('note').select(['id', 'text']).orderBy('id').execute();
    expect(again).toEqual(rows);
    expect(prepared.filter((text) => text.startsWith('insert'))).toHaveLength(1);
    expect(prepared.filter((text) => text.startsWith('select'))).toHaveLength(1);
    await db.destroy();
  });

  it('keeps at most `capacity` statements, dropping the least recently used', () => {
    const { prepared, counting } = countingDatabase();
    const cached = withStatementCache(counting, 2);
    cached.prepare('select 1');
    cached.prepare('select 2');
    cached.prepare('select 1'); // now the most recent
    cached.prepare('select 3'); // drops `select 2`
    cached.prepare('select 1');
    cached.prepare('select 2');
    expect(prepared).toEqual(['select 1', 'select 2', 'select 3', 'select 2']);
    cached.close();
  });

  it('still sees a table changed under a kept statement, and closes the database', async () => {
    const { database, counting } = countingDatabase();
    const db = new Kysely<{ item: { name: string } }>({
      dialect: new SqliteDialect({ database: withStatementCache(counting) }),
    });
    await sql`create table item (name text)`.execute(db);
    await db.insertInto('item').values({ name: 'a' }).execute();
    expect(await db.selectFrom('item').selectAll().execute()).toEqual([{ name: 'a' }]);
    await sql`alter table item add column size integer default 7`.execute(db);
    expect(await db.selectFrom('item').selectAll().execute()).toEqual([{ name: 'a', size: 7 }]);
    await db.destroy();
    expect(database.open).toBe(false);
  });

  it('refuses a statement that does not compile, and caches nothing for it', () => {
    const { prepared, counting } = countingDatabase();
    const cached = withStatementCache(counting);
    expect(() => cached.prepare('select from nowhere')).toThrow(/syntax error/);
    expect(() => cached.prepare('select from nowhere')).toThrow(/syntax error/);
    expect(prepared).toEqual(['select from nowhere', 'select from nowhere']);
    cached.close();
  });
});
