import { mkdirSync } from 'node:fs';
import type { AgentCore, ClawsmithHome } from '@clawsmith/core';
import type { Provider } from '@clawsmith/providers';
import type { WorkspaceWall } from '@clawsmith/tool-protocol';
import { openTelemetry } from './telemetry-runtime.js';

/** The provider of a runtime that runs no model: any request fails. */
export const NO_MODEL: Provider = {
  name: 'none',
  model: 'none',
  // eslint-disable-next-line require-yield
  async *stream() {
    throw new Error('This command runs no model.');
  },
};

/**
 * The wall of a runtime that never writes the workspace: a write that reaches it (an undo of
 * files) is refused rather than done without the sandboxed helper a turn's runtime uses.
 */
const NO_WORKSPACE_WRITES: WorkspaceWall = {
  kind: 'none',
  apply: () =>
    Promise.reject(new Error('This command does not write the workspace; undo files runs on the full runtime.')),
  close: () => Promise.resolve(),
};

/** An opened home with a core that reads it. `close()` closes the database. */
export interface StoreRuntime {
  readonly home: ClawsmithHome;
  readonly core: AgentCore;
  close(): Promise<void>;
}

/**
 * Opens the home (creating its folder, running its migrations) with a core that has no tools:
 * enough for the commands that work on the store and never write the workspace (`sessions`,
 * `checkpoints`, `undo diff`, `fork`). It starts no sandbox, language server, extension or
 * workspace helper, so such a command loads a fraction of what a turn needs; the home, the
 * database and the telemetry settings are opened as for a turn, so a command fails here for the
 * same reasons with the same errors.
 */
export async function openStoreRuntime(options: { readonly home?: string | undefined }): Promise<StoreRuntime> {
  const { createAgentCore, openClawsmithHome, resolveClawsmithHome } = await import('@clawsmith/core');
  const telemetry = await openTelemetry({});
  const homeFolder = resolveClawsmithHome(options.home);
  mkdirSync(homeFolder, { recursive: true });
  const home = await openClawsmithHome(options.home, { wall: NO_WORKSPACE_WRITES });
  const core = createAgentCore({
    db: home.db,
    provider: NO_MODEL,
    homeFolder,
    checkpoints: home.checkpoints,
    artifacts: home.artifacts,
    builtinTools: [],
  });
  const stopTracing = telemetry.enabled ? core.subscribe(telemetry.record) : undefined;
  return {
    home,
    core,
    async close() {
      await core.close();
      stopTracing?.();
      await telemetry.shutdown();
      await home.close();
    },
  };
}
