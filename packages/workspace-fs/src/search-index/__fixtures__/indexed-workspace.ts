// Test support: the seven tools over a workspace with a search index kept in a temporary home,
// and a wait for the index to be ready (it is built in a worker thread, in the background).
import { onTestFinished } from 'vitest';
import type { ToolExecutionResult } from '@clawsmith/tool-protocol';
import { testdir } from '@clawsmith/test-utils';
import { runTool, testContext } from '../../__fixtures__/tool-context.js';
import { toolsFor } from '../../create-workspace-tools.js';
import { resolveToolOptions, type WorkspaceToolsOptions } from '../../tool-options.js';

export interface IndexedWorkspace {
  readonly root: string;
  readonly home: string;
  search(input: Record<string, unknown>): Promise<ToolExecutionResult>;
  run(tool: string, input: Record<string, unknown>): Promise<ToolExecutionResult>;
  /** Searches until the index answers (or throws after a while); returns that first indexed result. */
  ready(): Promise<ToolExecutionResult>;
  close(): Promise<void>;
}

export function indexedWorkspace(
  root: string,
  options: Omit<WorkspaceToolsOptions, 'searchIndex'> & { watch?: boolean; home?: string } = {},
): IndexedWorkspace {
  const home = options.home ?? testdir();
  const resolved = resolveToolOptions({
    ...options,
    workspaceRoot: root,
    searchIndex: { folder: home, settledMs: 0, watch: options.watch ?? true },
  });
  const tools = toolsFor(resolved);
  const close = () => resolved.searchIndexes!.close();
  onTestFinished(close);
  const run = (name: string, input: Record<string, unknown>) =>
    runTool(
      tools.find((tool) => tool.name === name)!,
      input,
      testContext(root),
    );
  const search = (input: Record<string, unknown>) => run('search_files', input);
  return {
    root,
    home,
    search,
    run,
    close,
    async ready() {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const result = await search({ query: 'zq-probe-never-present' });
        if (result.content.includes('Used the search index')) return result;
        if (result.content.includes('could not be built')) throw new Error(result.content);
        if (Date.now() > deadline) throw new Error(`The index did not get ready: ${result.content}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}
