import * as fs from 'node:fs';
import { createWorkspaceMutationApplier } from './workspace-mutation-applier.js';
import { mutationFailure, type WorkspaceWall } from './workspace-mutations.js';

let directApplier: ReturnType<typeof createWorkspaceMutationApplier> | undefined;

/**
 * The wall of last resort: applies mutations in this process, guarded only by the callers'
 * user-space path checks. Used where no kernel-enforced wall can be built (macOS, sandbox `off`).
 */
export function createDirectWorkspaceWall(): WorkspaceWall {
  return {
    kind: 'none',
    async apply(batch) {
      directApplier ??= createWorkspaceMutationApplier(fs);
      const outcome = directApplier(batch);
      if (!outcome.ok) throw mutationFailure(outcome);
    },
    async close() {},
  };
}
