import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createArtifactStore, migrateArtifacts, type ArtifactStore } from '@clawsmith/artifacts';
import { createCheckpointStore, migrateCheckpoints, type CheckpointStore } from '@clawsmith/checkpoints';
import { ClawsmithError, type WorkspaceWall } from '@clawsmith/tool-protocol';
import type { Kysely } from 'kysely';
import { migrateCore } from './store/core-migrations.js';
import { HOME_BUSY_TIMEOUT_MS, openClawsmithConnection } from './store/open-database.js';

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
 * The home folder: the explicit one, else `CLAWSMITH_HOME`, else `~/.clawsmith`. An empty value
 * counts as unset (CI renders an unset variable as ''), never as the current folder.
 */
export function resolveClawsmithHome(explicit?: string): string {
  const configured = [explicit, process.env.CLAWSMITH_HOME].find((value) => value !== undefined && value !== '');
  return resolve(configured ?? join(homedir(), '.clawsmith'));
}

/**
 * The clear error for a home whose database stayed locked by other processes for longer than
 * {@link HOME_BUSY_TIMEOUT_MS} while opening (`home_busy`, retryable); undefined for any other error.
 */
export function homeBusyError(
  path: string,
  error: unknown,
  busyTimeoutMs: number = HOME_BUSY_TIMEOUT_MS,
): ClawsmithError | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string' || !(code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')))
    return undefined;
  return new ClawsmithError(
    'home_busy',
    `The clawsmith home ${path} stayed locked by other clawsmith processes for more than ${busyTimeoutMs / 1000} s while opening; nothing was changed. Run again when they finish, or give this run its own home with --home (or CLAWSMITH_HOME).`,
    { retryable: true, cause: error },
  );
}

/**
 * Opens a clawsmith home: the database `clawsmith.db` (every package's migrations run, each in
 * its own migration table), the checkpoint store and the artifact store (`artifacts/`).
 */
export async function openClawsmithHome(
  explicit?: string,
  options: {
    /** Where undo writes files (`createWorkspaceWall` of `@clawsmith/command-sandbox`); default in-process. */
    readonly wall?: WorkspaceWall;
    /** How long to wait for other processes' locks before `home_busy`; default {@link HOME_BUSY_TIMEOUT_MS}. */
    readonly busyTimeoutMs?: number;
  } = {},
): Promise<ClawsmithHome> {
  const path = resolveClawsmithHome(explicit);
  const busyTimeoutMs = options.busyTimeoutMs ?? HOME_BUSY_TIMEOUT_MS;
  let opened: ReturnType<typeof openClawsmithConnection>;
  try {
    opened = openClawsmithConnection(join(path, 'clawsmith.db'), busyTimeoutMs);
  } catch (error) {
    throw homeBusyError(path, error, busyTimeoutMs) ?? error;
  }
  const { db, sqlite } = opened;
  try {
    await migrateCore(db);
    await migrateCheckpoints(db);
    await migrateArtifacts(db);
  } catch (error) {
    await db.destroy();
    throw homeBusyError(path, error, busyTimeoutMs) ?? error;
  }
  const checkpoints = createCheckpointStore({ db, sqlite, ...(options.wall ? { wall: options.wall } : {}) });
  const artifacts = createArtifactStore({ db, directory: join(path, 'artifacts') });
  return { path, db, checkpoints, artifacts, close: () => db.destroy() };
}
