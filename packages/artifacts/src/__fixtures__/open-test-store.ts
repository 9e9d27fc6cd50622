// Opens a migrated home database on the test project's engine (a SQLite file, or a database of
// its own on the run's PostgreSQL server) and an artifact store whose bodies live in a temporary
// folder; everything is closed or removed after the test.
import { join } from 'node:path';
import { openDatabase } from '@clawsmith/platform';
import type { Kysely } from 'kysely';
import { onTestFinished } from 'vitest';
import { testdir } from '@clawsmith/test-utils';
import { testDatabaseLocation } from '@clawsmith/test-utils/postgres';
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
  const { db, close } = await openDatabase(await testDatabaseLocation(root), { busyTimeoutMs: 5000 });
  onTestFinished(close);
  await migrateArtifacts(db);
  const directory = join(root, 'artifacts');
  const store = createArtifactStore({ db, directory, ...options });
  return { root, db, directory, store };
}
