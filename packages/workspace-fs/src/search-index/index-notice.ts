import type { AnyToolDefinition, FileChangeRecorder, ToolExecutionContext } from '@clawsmith/tool-protocol';
import { resolveWorkspaceRoot } from '../path-boundary.js';
import type { SearchIndexes } from '@clawsmith/search-index';

/**
 * Wraps a write tool so that each file it reports through `afterChange` is re-read into the
 * search index at once: the next search answers from the new content without a watcher event.
 * The context's own recorder (checkpoints) still sees every call first, unchanged.
 */
export function updatingIndex<Tool extends AnyToolDefinition>(
  tool: Tool,
  indexes: SearchIndexes,
  rootFor: (context: ToolExecutionContext) => string,
): Tool {
  return Object.freeze({
    ...tool,
    execute: (input: unknown, context: ToolExecutionContext) => {
      const recorder = context.fileChanges;
      const noticing: FileChangeRecorder = {
        beforeChange: (path, preimage) => recorder?.beforeChange(path, preimage),
        afterChange: async (path, postimage) => {
          await recorder?.afterChange(path, postimage);
          indexes.existing(resolveWorkspaceRoot(rootFor(context)))?.noteChanged(path);
        },
      };
      return tool.execute(input, { ...context, fileChanges: noticing });
    },
  });
}
