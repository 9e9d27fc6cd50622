import { z } from 'zod';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ClawsmithError, UnauthorizedToolError } from './clawsmith-error.js';
import { assertAuthorized, type ToolExecutionContext } from './execution-context.js';
import { toolResultFromError } from './error-result.js';
import { defineTool, type AnyToolDefinition } from './tool-definition.js';

const context = (authorized: boolean): ToolExecutionContext => ({
  authorized,
  workspaceRoot: '/tmp/workspace',
  sessionId: 'session-1',
  turnId: 'turn-1',
  toolCallId: 'call-1',
  signal: new AbortController().signal,
});

const greet = defineTool({
  name: 'greet',
  description: 'Greets someone; writes a file in a real tool.',
  risk: 'workspace-write',
  capabilities: ['filesystem.write'],
  concurrencySafe: false,
  inputSchema: z.object({ name: z.string(), times: z.number().int().default(1) }),
  summarize: (input) => `greet ${input.name}`,
  async execute(input, executionContext) {
    assertAuthorized(executionContext, 'greet');
    expectTypeOf(input).toEqualTypeOf<{ name: string; times: number }>();
    return `hello ${input.name}`.repeat(input.times);
  },
});

describe('defineTool', () => {
  it('types execute input from the schema and fits a tool table', async () => {
    const table: AnyToolDefinition[] = [greet];
    expect(Object.isFrozen(greet)).toBe(true);
    const input = table[0]!.inputSchema.parse({ name: 'Ada' });
    expect(await table[0]!.execute(input, context(true))).toBe('hello Ada');
  });
});

describe('assertAuthorized', () => {
  it('refuses a call the host did not authorise, with the contract message', async () => {
    await expect(greet.execute({ name: 'Ada', times: 1 }, context(false))).rejects.toThrow(
      'Tool greet requires explicit authorization',
    );
    expect(() => assertAuthorized(undefined, 'write_file')).toThrow(UnauthorizedToolError);
    expect(() => assertAuthorized({ authorized: 'yes' as unknown as boolean }, 'write_file')).toThrow(
      /explicit authorization/,
    );
  });
});

describe('ClawsmithError', () => {
  it('keeps code, retryable and cause, and is recognised across copies by its marker', () => {
    const cause = new Error('disk full');
    const error = new ClawsmithError('storage_failed', 'Could not store the blob; free some disk space and retry.', {
      retryable: true,
      cause,
    });
    expect(ClawsmithError.isInstance(error)).toBe(true);
    expect(error.retryable).toBe(true);
    expect(error.cause).toBe(cause);
    // Another installed copy of this package has another class but the same global marker.
    const marker = Symbol.for('@clawsmith/error');
    const fromOtherCopy = Object.assign(new Error('x'), { code: 'other', [marker]: true });
    expect(ClawsmithError.isInstance(fromOtherCopy)).toBe(true);
    expect(ClawsmithError.isInstance(new Error('plain'))).toBe(false);
    expect(ClawsmithError.isInstance({ code: 'x' })).toBe(false);
  });
});

describe('toolResultFromError', () => {
  it('keeps a ClawsmithError code, maps other errors to tool_failed without a stack, and aborts to cancelled', () => {
    expect(
      toolResultFromError(new ClawsmithError('path_outside_workspace', 'Path is outside the workspace: ../x')),
    ).toEqual({
      version: 1,
      status: 'error',
      code: 'path_outside_workspace',
      retryable: false,
      content: 'Path is outside the workspace: ../x',
    });
    const failed = toolResultFromError(new TypeError('x is not a function'));
    expect(failed).toMatchObject({ status: 'error', code: 'tool_failed', content: 'x is not a function' });
    expect(failed.content).not.toMatch(/at .*\.ts/);
    const controller = new AbortController();
    controller.abort();
    expect(toolResultFromError(new Error('whatever'), controller.signal)).toMatchObject({
      status: 'cancelled',
      code: 'cancelled',
    });
    expect(toolResultFromError(Object.assign(new Error('aborted'), { name: 'AbortError' })).status).toBe('cancelled');
    expect(toolResultFromError('a string thrown')).toMatchObject({ code: 'tool_failed', content: 'a string thrown' });
  });
});
