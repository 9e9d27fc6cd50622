import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createArtifactStore, migrateArtifacts, type ArtifactStore } from '@clawsmith/artifacts';
import { createCheckpointStore, migrateCheckpoints, type CheckpointStore } from '@clawsmith/checkpoints';
import {
  DatabaseUnavailableError,
  openPostgresDatabase,
  redactDatabaseUrl,
  type DatabaseEngine,
  type DatabaseHandle,
} from '@clawsmith/platform';
import { resolveDatabaseUrl } from '@clawsmith/tool-host';
import { ClawsmithError, type WorkspaceWall } from '@clawsmith/tool-protocol';
import { migrateCore } from './store/core-migrations.js';
import { HOME_BUSY_TIMEOUT_MS, openClawsmithConnection } from './store/open-database.js';

/** The storage of one clawsmith home, shared by the CLI and the web server. */
export interface ClawsmithHome {
  /** The home folder: the SQLite database's folder, and where artifact bodies live on either engine. */
  readonly path: string;
  /** Which engine the home's database runs on. */
  readonly engine: DatabaseEngine;
  /** Where the database is, safe to print: the SQLite file, or the PostgreSQL URL without its password. */
  readonly database: string;
  /** The migrated database. */
  readonly db: DatabaseHandle;
  /** The home's restore points: what each turn changed, to put back. */
  readonly checkpoints: CheckpointStore;
  /** The home's artifacts: large results kept out of the conversation. */
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
 * Opens a clawsmith home: its database (every package's migrations run, each in its own
 * migration table, under a lock other processes wait on), the checkpoint store and the artifact
 * store (`artifacts/` in the home folder). The database is the home's SQLite file `clawsmith.db`,
 * or, with `databaseUrl` (or `CLAWSMITH_DATABASE_URL`), a PostgreSQL database that many processes
 * on many machines share; checkpoint bodies are then stored in that database, and artifact bodies
 * stay in the home folder, which such machines share.
 */
export async function openClawsmithHome(
  explicit?: string,
  options: {
    /** Where undo writes files (`createWorkspaceWall` of `@clawsmith/command-sandbox`); default in-process. */
    readonly wall?: WorkspaceWall;
    /** How long to wait for other processes' locks before `home_busy`; default {@link HOME_BUSY_TIMEOUT_MS}. */
    readonly busyTimeoutMs?: number;
    /** A PostgreSQL URL for the database (see {@link resolveDatabaseUrl}); default the home's SQLite file. */
    readonly databaseUrl?: string;
  } = {},
): Promise<ClawsmithHome> {
  const path = resolveClawsmithHome(explicit);
  const busyTimeoutMs = options.busyTimeoutMs ?? HOME_BUSY_TIMEOUT_MS;
  const databaseUrl = resolveDatabaseUrl(options.databaseUrl);
  let opened: ReturnType<typeof openClawsmithConnection> | { db: DatabaseHandle; sqlite?: undefined };
  const database = databaseUrl === undefined ? join(path, 'clawsmith.db') : redactDatabaseUrl(databaseUrl);
  try {
    opened =
      databaseUrl === undefined
        ? openClawsmithConnection(database, busyTimeoutMs)
        : await openPostgresDatabase(databaseUrl);
  } catch (error) {
    if (error instanceof DatabaseUnavailableError)
      throw new ClawsmithError('database_unavailable', error.message, { retryable: true, cause: error });
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
  const checkpoints = createCheckpointStore({
    db,
    ...(sqlite ? { sqlite } : {}),
    ...(options.wall ? { wall: options.wall } : {}),
  });
  const artifacts = createArtifactStore({ db, directory: join(path, 'artifacts') });
  const engine: DatabaseEngine = databaseUrl === undefined ? 'sqlite' : 'postgres';
  return { path, engine, database, db, checkpoints, artifacts, close: () => db.destroy() };
}
