// Opens a real SQLite database (WAL, busy timeout, as the host does) and an artifact store in a
// temporary folder that is removed after the test.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { onTestFinished } from 'vitest';
import { testdir } from '@clawsmith/test-utils';
import { createArtifactStore, type ArtifactStore, type ArtifactStoreOptions } from '../artifact-store.js';
import { migrateArtifacts } from '../migrations.js';

/** A migrated database and a store over it, for one test. */
export interface TestStore {
  readonly root: string;
  readonly db: Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  readonly directory: string;
  readonly store: ArtifactStore;
}

/** Opens a migrated database and a store over it, both removed after the current test. */
export async function openTestStore(
  options: Partial<Omit<ArtifactStoreOptions, 'db' | 'directory'>> = {},
): Promise<TestStore> {
  const root = testdir({});
  const sqlite = new Database(join(root, 'clawsmith.db'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) }); // eslint-disable-line @typescript-eslint/no-explicit-any
  onTestFinished(() => db.destroy());
  await migrateArtifacts(db);
  const directory = join(root, 'artifacts');
  const store = createArtifactStore({ db, directory, ...options });
  return { root, db, directory, store };
}
