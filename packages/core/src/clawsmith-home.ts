import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createArtifactStore, migrateArtifacts, type ArtifactStore } from '@clawsmith/artifacts';
import { createCheckpointStore, migrateCheckpoints, type CheckpointStore } from '@clawsmith/checkpoints';
import type { Kysely } from 'kysely';
import { migrateCore } from './store/core-migrations.js';
import { openClawsmithDatabase } from './store/open-database.js';

/** The storage of one clawsmith home, shared by the CLI and the web server. */
export interface ClawsmithHome {
  /** The home folder. */
  readonly path: string;
  /** The migrated database. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly db: Kysely<any>;
  readonly checkpoints: CheckpointStore;
  readonly artifacts: ArtifactStore;
  /** Closes the database. */
  close(): Promise<void>;
}

/**
 * The home folder: the explicit one, else `CLAWSMITH_HOME`, else `~/.clawsmith`.
 */
export function resolveClawsmithHome(explicit?: string): string {
  return resolve(explicit ?? process.env.CLAWSMITH_HOME ?? join(homedir(), '.clawsmith'));
}

/**
 * Opens a clawsmith home: the database `clawsmith.db` (every package's migrations run, each in
 * its own migration table), the checkpoint store and the artifact store (`artifacts/`).
 */
export async function openClawsmithHome(explicit?: string): Promise<ClawsmithHome> {
  const path = resolveClawsmithHome(explicit);
  const db = openClawsmithDatabase(join(path, 'clawsmith.db'));
  try {
    await migrateCore(db);
    await migrateCheckpoints(db);
    await migrateArtifacts(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const checkpoints = createCheckpointStore({ db });
  const artifacts = createArtifactStore({ db, directory: join(path, 'artifacts') });
  return { path, db, checkpoints, artifacts, close: () => db.destroy() };
}
