// Real tool definitions for the tests: each runs and returns its own name and input.
import {
  defineTool,
  type AnyToolDefinition,
  type ToolExecutionContext,
  type ToolSearchMetadata,
} from '@clawsmith/tool-protocol';
import { z } from 'zod';

/** Fields a test sets on a tool; everything else gets a plain default. */
export interface TestToolFields {
  readonly description?: string;
  readonly deferred?: boolean;
  readonly searchMetadata?: ToolSearchMetadata;
  readonly inputSchema?: z.ZodType;
}

/** A real, runnable tool named `name`. */
export function tool(name: string, fields: TestToolFields = {}): AnyToolDefinition {
  return defineTool({
    name,
    description: fields.description ?? `The ${name} tool.`,
    risk: 'read',
    capabilities: ['session.read'],
    concurrencySafe: true,
    inputSchema: fields.inputSchema ?? z.object({ value: z.string().optional() }),
    summarize: () => name,
    execute: async (input) => `${name} ran with ${JSON.stringify(input)}`,
    ...(fields.searchMetadata ? { searchMetadata: fields.searchMetadata } : {}),
    ...(fields.deferred !== undefined ? { deferred: fields.deferred } : {}),
  });
}

/** A deferred tool named `name`. */
export function deferredTool(name: string, fields: Omit<TestToolFields, 'deferred'> = {}): AnyToolDefinition {
  return tool(name, { ...fields, deferred: true });
}

/** An execution context for session `sessionId`, authorised unless told otherwise. */
export function contextFor(sessionId: string, authorized = true): ToolExecutionContext {
  return {
    authorized,
    workspaceRoot: '/nonexistent-workspace',
    sessionId,
    turnId: 'turn-1',
    toolCallId: 'call-1',
    signal: new AbortController().signal,
  };
}
