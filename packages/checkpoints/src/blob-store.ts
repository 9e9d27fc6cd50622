import { sql, type Kysely } from 'kysely';
import type { CheckpointTables } from './checkpoint-schema.js';

/** Rows per multi-row statement: 4 parameters each stays far below SQLite's and PostgreSQL's limits. */
const ROWS_PER_STATEMENT = 200;
/** Bodies fetched by one select; bounds memory to this many files of at most 1 MB. */
export const BLOBS_PER_FETCH = 32;

/** Stores each body under its SHA-256 unless a blob with that hash exists already; one statement per 200 bodies. */
export async function putBlobs(
  db: Kysely<CheckpointTables>,
  blobs: ReadonlyArray<readonly [sha256: string, content: Uint8Array]>,
  now: number,
): Promise<void> {
  for (let start = 0; start < blobs.length; start += ROWS_PER_STATEMENT) {
    const rows = blobs
      .slice(start, start + ROWS_PER_STATEMENT)
      .map(([sha256, content]) => sql`(${sha256}, ${content}, ${content.byteLength}, ${now})`);
    // Hand-written SQL (portable): the query builder costs more than the insert itself here.
    await sql`insert into checkpoint_blob (sha256, content, bytes, created_at) values ${sql.join(rows)} on conflict (sha256) do nothing`.execute(
      db,
    );
  }
}

/** Stores `content` under its SHA-256 unless a blob with that hash exists already. */
export async function putBlob(
  db: Kysely<CheckpointTables>,
  sha256: string,
  content: Uint8Array,
  now: number,
): Promise<void> {
  await putBlobs(db, [[sha256, content]], now);
}

/** The body stored under `sha256`, or undefined when there is none. */
export async function getBlob(db: Kysely<CheckpointTables>, sha256: string): Promise<Buffer | undefined> {
  return (await getBlobs(db, [sha256])).get(sha256);
}

/** The bodies stored under the given hashes (at most {@link BLOBS_PER_FETCH} at a time, by the caller); missing ones are absent from the map. */
export async function getBlobs(db: Kysely<CheckpointTables>, hashes: readonly string[]): Promise<Map<string, Buffer>> {
  const unique = [...new Set(hashes)];
  const found = new Map<string, Buffer>();
  if (unique.length === 0) return found;
  const { rows } = await sql<{
    sha256: string;
    content: Uint8Array;
  }>`select sha256, content from checkpoint_blob where sha256 in (${sql.join(unique)})`.execute(db);
  for (const row of rows) found.set(row.sha256, Buffer.from(row.content));
  return found;
}
