// Test support: a tool context with a recorder that keeps every call, and a runner that parses
// input with the tool's schema and turns a thrown error into the result the host would build.
import type {
  AnyToolDefinition,
  FilePostimage,
  FilePreimage,
  ToolExecutionContext,
  ToolExecutionResult,
} from '@clawsmith/tool-protocol';
import { toolResultFromError } from '@clawsmith/tool-protocol';
import { createWorkspaceTools, type WorkspaceToolsOptions } from '../index.js';

export interface RecordedChange {
  readonly phase: 'before' | 'after';
  readonly path: string;
  readonly image: FilePreimage | FilePostimage;
}

export interface TestContext extends ToolExecutionContext {
  readonly changes: RecordedChange[];
}

export function testContext(
  workspaceRoot: string,
  overrides: {
    authorized?: boolean;
    beforeChange?: (path: string, image: FilePreimage) => void | Promise<void>;
    signal?: AbortSignal;
  } = {},
): TestContext {
  const changes: RecordedChange[] = [];
  return {
    authorized: overrides.authorized ?? true,
    workspaceRoot,
    sessionId: 'session-1',
    turnId: 'turn-1',
    toolCallId: 'call-1',
    signal: overrides.signal ?? new AbortController().signal,
    changes,
    fileChanges: {
      async beforeChange(path, image) {
        await overrides.beforeChange?.(path, image);
        changes.push({ phase: 'before', path, image });
      },
      afterChange(path, image) {
        changes.push({ phase: 'after', path, image });
      },
    },
  };
}

export function toolNamed(name: string, options: WorkspaceToolsOptions = {}): AnyToolDefinition {
  const tool = createWorkspaceTools(options).find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
}

/** Runs `tool` as the host would: schema-parsed input, a thrown error becomes an error result. */
export async function runTool(
  tool: AnyToolDefinition,
  input: unknown,
  context: ToolExecutionContext,
): Promise<ToolExecutionResult> {
  try {
    return (await tool.execute(tool.inputSchema.parse(input), context)) as ToolExecutionResult;
  } catch (error) {
    return toolResultFromError(error, context.signal);
  }
}
