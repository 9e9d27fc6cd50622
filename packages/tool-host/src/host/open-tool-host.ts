import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createArtifactStore, migrateArtifacts } from '@clawsmith/artifacts';
import { createCheckpointStore, migrateCheckpoints, openCheckpointDatabase } from '@clawsmith/checkpoints';
import { createRunCommandTool, type CommandSandboxOptions } from '@clawsmith/command-sandbox';
import { DatabaseUnavailableError, openPostgresDatabase } from '@clawsmith/platform';
import { ClawsmithError, type AnyToolDefinition } from '@clawsmith/tool-protocol';
import { createWorkspaceTools, type WorkspaceToolsOptions } from '@clawsmith/workspace-fs';
import { resolveDatabaseUrl } from './database-url.js';
import { HOME_BUSY_TIMEOUT_MS } from './home-busy-timeout.js';
import { createToolHost, type ToolHost } from './tool-host.js';
import type { ToolHostOptions } from './tool-host-types.js';

/** Options of {@link openToolHost}: a home folder instead of stores, and the standard tools' options. */
export interface OpenToolHostOptions extends Omit<
  ToolHostOptions,
  'checkpoints' | 'artifacts' | 'tools' | 'workspaceRoot'
> {
  /** The folder that keeps the database (`clawsmith.db`) and the artifacts; created when missing. Keep it outside the workspace. */
  readonly home: string;
  /**
   * A PostgreSQL URL (`postgres://…`) for the database instead of `<home>/clawsmith.db`, as
   * `openClawsmithHome` takes it; default `CLAWSMITH_DATABASE_URL` when set. Artifact bodies stay
   * in `<home>/artifacts`: hosts sharing one database share that folder too.
   */
  readonly databaseUrl?: string;
  readonly workspaceRoot: string;
  /** Options of the seven file tools (limits, skipped folders, protected paths). */
  readonly workspace?: Omit<WorkspaceToolsOptions, 'workspaceRoot'>;
  /** Options of `run_command` (the sandbox is on by default: `auto`). */
  readonly command?: CommandSandboxOptions;
  /** Tools added after the standard ones (the file tools, `run_command`, `read_artifact`). */
  readonly extraTools?: readonly AnyToolDefinition[];
}

/** A tool host that owns its database: `close()` releases it. */
export interface OpenedToolHost extends ToolHost {
  /** Ends the open step and closes the database. */
  close(): Promise<void>;
}

/** Opens and migrates the checkpoint tables of a PostgreSQL home (under the migration lock). */
async function openPostgresHome(url: string) {
  let opened;
  try {
    opened = await openPostgresDatabase(url);
  } catch (error) {
    if (error instanceof DatabaseUnavailableError)
      throw new ClawsmithError('database_unavailable', error.message, { retryable: true, cause: error });
    throw error;
  }
  try {
    await migrateCheckpoints(opened.db);
  } catch (error) {
    await opened.db.destroy();
    throw error;
  }
  return opened.db;
}

/**
 * Opens a tool host on a home folder: the checkpoint and artifact stores in `<home>/clawsmith.db`
 * or in the PostgreSQL database of `databaseUrl` (their migrations run; the same layout a
 * clawsmith home has), the seven file tools,
 * `run_command` in its sandbox, `read_artifact`, and any `extraTools`.
 */
export async function openToolHost(options: OpenToolHostOptions): Promise<OpenedToolHost> {
  const home = resolve(options.home);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const databaseUrl = resolveDatabaseUrl(options.databaseUrl);
  const db =
    databaseUrl === undefined
      ? // The same wait as core's connections to a home: another process may hold the write lock.
        await openCheckpointDatabase(join(home, 'clawsmith.db'), { busyTimeoutMs: HOME_BUSY_TIMEOUT_MS })
      : await openPostgresHome(databaseUrl);
  try {
    await migrateArtifacts(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const { home: _home, databaseUrl: _databaseUrl, workspace, command, extraTools, ...hostOptions } = options;
  const host = createToolHost({
    ...hostOptions,
    workspaceRoot: resolve(options.workspaceRoot),
    checkpoints: createCheckpointStore({ db }),
    artifacts: createArtifactStore({ db, directory: join(home, 'artifacts') }),
    tools: [
      ...createWorkspaceTools({ ...(workspace ?? {}) }),
      createRunCommandTool({ additionalHiddenPaths: [home], ...(command ?? {}) }),
      ...(extraTools ?? []),
    ],
  });
  return Object.freeze({
    ...host,
    async close() {
      try {
        await host.endStep();
      } finally {
        await db.destroy();
      }
    },
  });
}
