import type { Kysely } from 'kysely';
import type { CheckpointTables } from './checkpoint-schema.js';

/** Stores `content` under its SHA-256 unless a blob with that hash exists already. */
export async function putBlob(db: Kysely<CheckpointTables>, sha256: string, content: Uint8Array, now: number): Promise<void> {
  await db
    .insertInto('checkpoint_blob')
    .values({ sha256, content, bytes: content.byteLength, created_at: now })
    .onConflict((conflict) => conflict.column('sha256').doNothing())
    .execute();
}

/** The body stored under `sha256`, or undefined when there is none. */
export async function getBlob(db: Kysely<CheckpointTables>, sha256: string): Promise<Buffer | undefined> {
  const row = await db.selectFrom('checkpoint_blob').select('content').where('sha256', '=', sha256).executeTakeFirst();
  return row === undefined ? undefined : Buffer.from(row.content);
}
