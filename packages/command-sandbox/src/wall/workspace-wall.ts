import { realpathSync } from 'node:fs';
import { createDirectWorkspaceWall, mutationFailure, type WorkspaceWall } from '@clawsmith/tool-protocol';
import { SandboxUnavailableError } from '../errors.js';
import { sandboxAvailability, type SandboxMode } from '../sandbox/sandbox-availability.js';
import { RootProtectedKeys } from './root-protected-key.js';
import { resolveTrustedLauncher } from '../process/trusted-launcher.js';
import { WallHelper, type WallPrograms } from './wall-helper.js';

/** Options of {@link createWorkspaceWall}. */
export interface WorkspaceWallOptions {
  /**
   * `auto` (default): the bubblewrap wall where a trusted bubblewrap is installed (Linux), else
   * the direct one. `bubblewrap`: that wall or refuse every mutation. `off`: direct.
   */
  readonly mode?: SandboxMode;
  /** The bubblewrap program; default `bwrap` from the trusted system folders. */
  readonly bubblewrapProgram?: string;
}

/**
 * The file wall: every mutation of the file tools and of undo is applied by a long-lived helper
 * process per workspace, started under bubblewrap, in which the workspace is the only writable
 * host folder. The callers' path checks stay the first wall; this one holds when a command races
 * them (swapping a folder for a symbolic link between check and write): the kernel answers
 * `EROFS` for anything outside. With `auto` on a machine without a trusted bubblewrap (or not
 * Linux), and with `off`, mutations are applied in this process instead (`kind: 'none'`, the
 * documented degraded mode); a bubblewrap that cannot start the helper refuses every mutation
 * with `sandbox_unavailable`.
 */
export function createWorkspaceWall(options: WorkspaceWallOptions = {}): WorkspaceWall {
  const mode = options.mode ?? 'auto';
  const direct = createDirectWorkspaceWall();
  if (mode === 'off') return direct;
  if (
    mode === 'auto' &&
    (process.platform !== 'linux' || !resolveTrustedLauncher('bwrap', options.bubblewrapProgram).found)
  )
    return direct;
  const helpers = new Map<string, Promise<WallHelper>>();
  const rootKeys = new RootProtectedKeys();
  let programs: Promise<WallPrograms> | undefined;
  // A trusted bubblewrap that fails its self-test refuses every mutation (fail closed).
  const resolvePrograms = () =>
    (programs ??= sandboxAvailability('bubblewrap', options.bubblewrapProgram).then((availability) => {
      if (!availability.available) throw new SandboxUnavailableError(availability.detail);
      const mkfifo = resolveTrustedLauncher('mkfifo');
      if (!mkfifo.found) throw new SandboxUnavailableError(mkfifo.detail);
      return { bubblewrap: availability.program, mkfifo: mkfifo.program };
    }));
  /** The helper of `workspace`, started again when it is gone or its protected paths changed. */
  const helperFor = async (workspace: string, rootKey: string): Promise<WallHelper> => {
    for (;;) {
      const entry = helpers.get(workspace);
      if (entry !== undefined) {
        const helper = await entry.catch(() => undefined);
        if (helpers.get(workspace) !== entry) continue;
        if (helper?.alive && helper.rootKey === rootKey) return helper;
        helper?.close();
      }
      const starting = resolvePrograms().then((found) => WallHelper.start(found, workspace, rootKey));
      helpers.set(workspace, starting);
      return starting;
    }
  };
  return {
    kind: 'bubblewrap',
    async apply(batch) {
      const workspace = realpathSync.native(batch.workspaceRoot);
      const rootKey = rootKeys.of(workspace);
      let outcome = (await helperFor(workspace, rootKey)).exchange(batch);
      // A helper that died idle (killed, out of memory) took nothing: a new one gets the batch.
      if (outcome === 'undelivered') outcome = (await helperFor(workspace, rootKey)).exchange(batch);
      if (outcome === 'undelivered')
        throw new SandboxUnavailableError(`the file wall's helper for ${workspace} could not be reached`);
      if (!outcome.ok) throw mutationFailure(outcome);
    },
    async close() {
      const closing = [...helpers.values()];
      helpers.clear();
      await Promise.all(closing.map((entry) => entry.then((helper) => helper.close()).catch(() => undefined)));
    },
  };
}
