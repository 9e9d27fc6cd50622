import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3'; // with @types/better-sqlite3 for its types
import { Kysely, SqliteDialect } from 'kysely';
import { createArtifactStore, createReadArtifactTool, migrateArtifacts } from '@clawsmith/artifacts';

const scratch = mkdtempSync(join(tmpdir(), 'clawsmith-artifacts-example-'));
// The store uses your Kysely database (SQLite here) and never closes it.
const db = new Kysely<unknown>({
  dialect: new SqliteDialect({ database: new Database(join(scratch, 'clawsmith.db')) }),
});
try {
  await migrateArtifacts(db);
  const store = createArtifactStore({ db, directory: join(scratch, 'artifacts') });
  const big = Array.from({ length: 20_000 }, (_, index) => `line ${index + 1}`).join('\n');
  const { content, artifact } = await store.externalize(big, { sessionId: 's1', toolCallId: 'call-1' });
  if (!artifact) throw new Error('20,000 lines are over the inline threshold: expected an artifact');
  console.log(big.length, '->', content.length, 'characters for the model, the rest in', artifact.mediaType);

  const readArtifact = createReadArtifactTool(store);
  const context = {
    authorized: true,
    workspaceRoot: scratch,
    sessionId: 's1', // reads are scoped to the calling session
    turnId: 't1',
    toolCallId: 'call-2',
    signal: new AbortController().signal,
  };
  const lines = await readArtifact.execute({ id: artifact.id, startLine: 9_000, endLine: 9_002 }, context);
  console.log(lines.status, lines.content.split('\n')[1]); // success 9000: line 9000
} finally {
  await db.destroy();
  rmSync(scratch, { recursive: true, force: true });
}
