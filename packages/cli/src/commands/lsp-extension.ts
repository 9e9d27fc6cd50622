import type { ClawsmithHome, ToolSource } from '@clawsmith/core';
import type { TurnChangedFiles } from '@clawsmith/tool-protocol';

/** The lsp tools as an extension source of the core, and the service behind them. */
export interface LspExtension {
  readonly source: ToolSource;
  /** Stops every language server this process started. */
  close(): Promise<void>;
}

/**
 * "The files changed in this turn", answered from the turn's restore point: its manifest lists
 * every path a tool or a recorded command changed, in the order the turn first touched them.
 */
export function checkpointTurnChanges(checkpoints: ClawsmithHome['checkpoints']): TurnChangedFiles {
  return {
    async changedFiles(sessionId, turnId) {
      const point = await checkpoints.getRestorePoint(sessionId, turnId);
      return point.manifest.files.filter((file) => file.change !== 'deleted').map((file) => file.path);
    },
  };
}

/**
 * Composes `@clawsmith/lsp` for this process: servers configured by the home's `lsp.json` (and
 * each workspace's), started on first use, and stopped by `close()` together with the core.
 */
export async function openLspExtension(home: Pick<ClawsmithHome, 'path' | 'checkpoints'>): Promise<LspExtension> {
  const { createLspService, createLspTools } = await import('@clawsmith/lsp');
  const service = createLspService({ home: home.path, changedFiles: checkpointTurnChanges(home.checkpoints) });
  return { source: { source: 'extension:lsp', tools: createLspTools(service) }, close: () => service.close() };
}
