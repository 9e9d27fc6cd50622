import { databaseEngineOf } from '@clawsmith/platform';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { CheckpointError } from './checkpoint-errors.js';
import type { CheckpointTables } from './checkpoint-schema.js';

/** Rows per multi-row statement: 4 parameters each stays far below SQLite's and PostgreSQL's limits. */
const ROWS_PER_STATEMENT = 200;
/** Bodies fetched by one select; bounds memory to this many bodies of at most {@link BLOB_CHUNK_BYTES}. */
export const BLOBS_PER_FETCH = 32;
/**
 * The largest body kept in its blob row, and the size of each piece of a larger one: a body over
 * this is stored and read piece by piece, so no statement, result or buffer holds all of it.
 */
export const BLOB_CHUNK_BYTES = 1024 * 1024;

/** How many pieces a body of `bytes` is stored in: 0 when it fits in its blob row. */
export function chunkCount(bytes: number): number {
  return bytes <= BLOB_CHUNK_BYTES ? 0 : Math.ceil(bytes / BLOB_CHUNK_BYTES);
}

/** Piece `index` of `content`, as a Buffer over the same memory (no copy). */
export function chunkOf(content: Uint8Array, index: number): Buffer {
  const start = index * BLOB_CHUNK_BYTES;
  const end = Math.min(content.byteLength, start + BLOB_CHUNK_BYTES);
  return Buffer.from(content.buffer, content.byteOffset + start, end - start);
}

/** A body as stored: whole in its row, or in `chunks` pieces read by {@link readBlobChunks}. */
export type StoredBlob =
  | { readonly sha256: string; readonly bytes: number; readonly chunks: 0; readonly content: Buffer }
  | { readonly sha256: string; readonly bytes: number; readonly chunks: number; readonly content?: undefined };

/**
 * A body column as selected: SQLite's blob as it is; PostgreSQL's `bytea` as base64 text, a third
 * larger than the bytes where the driver's default (hex text) is twice their size, on the wire and
 * in the driver's memory. Read back with {@link bodyBytes}.
 */
function bodyColumn(db: Kysely<CheckpointTables>, column: 'content'): RawBuilder<Uint8Array | string> {
  return databaseEngineOf(db) === 'postgres' ? sql`encode(${sql.ref(column)}, 'base64')` : sql.ref(column);
}

/** The bytes of a body column selected by {@link bodyColumn} (base64 text is decoded; line breaks in it are skipped). */
function bodyBytes(value: Uint8Array | string): Buffer {
  return typeof value === 'string'
    ? Buffer.from(value, 'base64')
    : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

/** An empty body, written as a literal: a bound empty buffer can reach SQLite as NULL. */
function emptyBody(db: Kysely<CheckpointTables>) {
  return databaseEngineOf(db) === 'postgres' ? sql`'\\x'::bytea` : sql`x''`;
}

/** Stores each body under its SHA-256 unless a blob with that hash exists already; one statement per 200 small bodies. */
export async function putBlobs(
  db: Kysely<CheckpointTables>,
  blobs: ReadonlyArray<readonly [sha256: string, content: Uint8Array]>,
  now: number,
): Promise<void> {
  const small = blobs.filter(([, content]) => chunkCount(content.byteLength) === 0);
  for (let start = 0; start < small.length; start += ROWS_PER_STATEMENT) {
    const rows = small
      .slice(start, start + ROWS_PER_STATEMENT)
      .map(([sha256, content]) => sql`(${sha256}, ${content}, ${content.byteLength}, ${now})`);
    // Hand-written SQL (portable): the query builder costs more than the insert itself here.
    await sql`insert into checkpoint_blob (sha256, content, bytes, created_at) values ${sql.join(rows)} on conflict (sha256) do nothing`.execute(
      db,
    );
  }
  for (const [sha256, content] of blobs) {
    const chunks = chunkCount(content.byteLength);
    if (chunks === 0) continue;
    // The row comes first: when it exists already (another turn or process stored this body),
    // its pieces are there or are being written in that transaction, and none is sent again.
    const { rows } = await sql<{
      sha256: string;
    }>`insert into checkpoint_blob (sha256, content, bytes, chunks, created_at)
      values (${sha256}, ${emptyBody(db)}, ${content.byteLength}, ${chunks}, ${now}) on conflict (sha256) do nothing returning sha256`.execute(
      db,
    );
    if (rows.length === 0) continue;
    for (let index = 0; index < chunks; index += 1) {
      await sql`insert into checkpoint_blob_chunk (sha256, chunk_index, content) values (${sha256}, ${index}, ${chunkOf(content, index)})`.execute(
        db,
      );
    }
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

/**
 * How the bodies under the given hashes are stored (at most {@link BLOBS_PER_FETCH} at a time, by
 * the caller): small ones with their bytes, large ones by their number of pieces. Missing ones are
 * absent from the map.
 */
export async function findBlobs(
  db: Kysely<CheckpointTables>,
  hashes: readonly string[],
): Promise<Map<string, StoredBlob>> {
  const unique = [...new Set(hashes)];
  const found = new Map<string, StoredBlob>();
  if (unique.length === 0) return found;
  const { rows } = await sql<{
    sha256: string;
    bytes: number | string;
    chunks: number;
    content: Uint8Array | string | null;
  }>`select sha256, bytes, chunks, case when chunks = 0 then ${bodyColumn(db, 'content')} end as content from checkpoint_blob where sha256 in (${sql.join(unique)})`.execute(
    db,
  );
  for (const row of rows) {
    const bytes = Number(row.bytes);
    const chunks = Number(row.chunks);
    found.set(
      row.sha256,
      chunks === 0
        ? { sha256: row.sha256, bytes, chunks: 0, content: bodyBytes(row.content ?? new Uint8Array(0)) }
        : { sha256: row.sha256, bytes, chunks },
    );
  }
  return found;
}

/** Which of `hashes` name a body kept whole in its row (not in pieces), without reading the bodies. */
export async function bodiesKeptWhole(db: Kysely<CheckpointTables>, hashes: readonly string[]): Promise<Set<string>> {
  const unique = [...new Set(hashes)];
  if (unique.length === 0) return new Set();
  const { rows } = await sql<{
    sha256: string;
  }>`select sha256 from checkpoint_blob where chunks = 0 and sha256 in (${sql.join(unique)})`.execute(db);
  return new Set(rows.map((row) => row.sha256));
}

/**
 * The pieces of a body stored in chunks, one query and one piece at a time (so at most one piece
 * is in memory on this side). Throws `checkpoint_blob_missing` when a piece is gone.
 */
export async function* readBlobChunks(
  db: Kysely<CheckpointTables>,
  blob: { readonly sha256: string; readonly chunks: number },
): AsyncGenerator<Buffer> {
  for (let index = 0; index < blob.chunks; index += 1) {
    const { rows } = await sql<{
      content: Uint8Array | string;
    }>`select ${bodyColumn(db, 'content')} as content from checkpoint_blob_chunk where sha256 = ${blob.sha256} and chunk_index = ${index}`.execute(
      db,
    );
    const row = rows[0];
    if (row === undefined) {
      throw new CheckpointError(
        'checkpoint_blob_missing',
        `Piece ${index + 1} of ${blob.chunks} of the stored content ${blob.sha256} is missing; it cannot be restored.`,
      );
    }
    yield bodyBytes(row.content);
  }
}

/**
 * The bodies stored under the given hashes, whole (at most {@link BLOBS_PER_FETCH} at a time, by
 * the caller): for diffs and line statistics. A body stored in pieces is put together here.
 */
export async function getBlobs(db: Kysely<CheckpointTables>, hashes: readonly string[]): Promise<Map<string, Buffer>> {
  const whole = new Map<string, Buffer>();
  for (const [sha256, blob] of await findBlobs(db, hashes)) {
    if (blob.content !== undefined) {
      whole.set(sha256, blob.content);
      continue;
    }
    const pieces: Buffer[] = [];
    for await (const piece of readBlobChunks(db, blob)) pieces.push(piece);
    whole.set(sha256, Buffer.concat(pieces, blob.bytes));
  }
  return whole;
}

/** The body stored under `sha256`, whole, or undefined when there is none. */
export async function getBlob(db: Kysely<CheckpointTables>, sha256: string): Promise<Buffer | undefined> {
  return (await getBlobs(db, [sha256])).get(sha256);
}
