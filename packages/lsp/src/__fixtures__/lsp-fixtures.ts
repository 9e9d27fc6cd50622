// Test support: tool contexts, a host-like runner (schema-parsed input, thrown errors become
// results), a changed-files port the test fills in, and a small TypeScript project.
import type {
  AnyToolDefinition,
  ToolExecutionContext,
  ToolExecutionResult,
  TurnChangedFiles,
} from '@clawsmith/tool-protocol';
import { normalizeToolResult, toolResultFromError } from '@clawsmith/tool-protocol';
import { createLspTools } from '../create-lsp-tools.js';
import type { LspService } from '../lsp-service.js';

export function testContext(
  workspaceRoot: string,
  overrides: { sessionId?: string; turnId?: string; signal?: AbortSignal } = {},
): ToolExecutionContext {
  return {
    authorized: true,
    workspaceRoot,
    sessionId: overrides.sessionId ?? 'session-1',
    turnId: overrides.turnId ?? 'turn-1',
    toolCallId: 'call-1',
    signal: overrides.signal ?? new AbortController().signal,
  };
}

/** A changed-files port backed by a map the test fills, keyed `sessionId/turnId`. */
export class RecordedTurnChanges implements TurnChangedFiles {
  readonly turns = new Map<string, string[]>();

  record(sessionId: string, turnId: string, ...paths: string[]): void {
    const key = `${sessionId}/${turnId}`;
    this.turns.set(key, [...(this.turns.get(key) ?? []), ...paths]);
  }

  async changedFiles(sessionId: string, turnId: string): Promise<readonly string[]> {
    return this.turns.get(`${sessionId}/${turnId}`) ?? [];
  }
}

export function lspTool(service: LspService, name: string): AnyToolDefinition {
  const tool = createLspTools(service).find((candidate) => candidate.name === name);
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
    return normalizeToolResult(await tool.execute(tool.inputSchema.parse(input), context));
  } catch (error) {
    return toolResultFromError(error, context.signal);
  }
}

/**
 * A two-file TypeScript project: `src/main.ts` assigns a number to a string on line 4. Its `lib`
 * leaves out the DOM (its target's default), which would be about a quarter of each server
 * start's processor time (3.3 s against 2.5 s); `src/console.d.ts` declares the one global it uses.
 */
export const TYPESCRIPT_PROJECT = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: { strict: true, module: 'nodenext', target: 'es2022', lib: ['es2022'], noEmit: true, types: [] },
    include: ['src'],
  }),
  'src/console.d.ts': 'declare const console: { log(...values: unknown[]): void };\n',
  'src/math.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
  'src/main.ts':
    'import { add } from "./math.js";\n\n// the total of two numbers\nconst total: string = add(1, 2);\nconsole.log(total, add(3, 4));\n',
};
