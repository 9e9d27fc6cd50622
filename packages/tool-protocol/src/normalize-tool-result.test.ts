import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeToolResult } from './normalize-tool-result.js';
import { TOOL_RESULT_STATUSES } from './tool-result.js';

describe('normalizeToolResult', () => {
  it('wraps a string as success', () => {
    expect(normalizeToolResult('hello')).toEqual({ version: 1, status: 'success', content: 'hello' });
  });

  it('keeps a valid result with its status and metadata, sanitising its display', () => {
    const result = normalizeToolResult({
      version: 1,
      status: 'error',
      code: 'path_outside_workspace',
      retryable: false,
      content: 'Path is outside the workspace: ../x',
      display: { kind: 'text', title: 'token=abcdef123456\u001b[31m', body: 'ok' },
    });
    expect(result).toMatchInlineSnapshot(`
      {
        "code": "path_outside_workspace",
        "content": "Path is outside the workspace: ../x",
        "display": {
          "body": "ok",
          "kind": "text",
          "title": "token=[REDACTED]",
        },
        "retryable": false,
        "status": "error",
        "version": 1,
      }
    `);
  });

  it("keeps a command's exit code and duration", () => {
    const result = normalizeToolResult({
      version: 1,
      status: 'error',
      code: 'command_failed',
      exitCode: 3,
      durationMs: 12,
      content: 'exit code 3',
    });
    expect(result).toMatchObject({ status: 'error', code: 'command_failed', exitCode: 3, durationMs: 12 });
  });

  it('does not let an object without string content claim an error or denied status', () => {
    const result = normalizeToolResult({ version: 1, status: 'denied', content: 42 });
    expect(result.status).toBe('success');
    expect(result.code).toBeUndefined();
    expect(JSON.parse(result.content)).toEqual({ version: 1, status: 'denied', content: 42 });
  });

  it('rejects an unknown status or version as a result and serialises it instead', () => {
    expect(normalizeToolResult({ version: 2, status: 'error', content: 'x' }).status).toBe('success');
    expect(normalizeToolResult({ version: 1, status: 'exploded', content: 'x' }).status).toBe('success');
  });

  it('serialises plain objects, cycles, throwing getters, bigints, functions and symbols honestly', () => {
    const cyclic: Record<string, unknown> = { name: 'loop', big: 10n, run: () => 1, tag: Symbol('t') };
    cyclic.self = cyclic;
    Object.defineProperty(cyclic, 'secret', {
      enumerable: true,
      get() {
        throw new Error('getter exploded');
      },
    });
    const content = JSON.parse(normalizeToolResult(cyclic).content);
    expect(content).toEqual({
      name: 'loop',
      big: '10n',
      run: '[function]',
      tag: '[symbol t]',
      self: '[circular]',
      secret: '[property threw: getter exploded]',
    });
  });

  it.each([
    [undefined, '(the tool returned no output)'],
    [null, 'null'],
    [42, '42'],
    [Number.NaN, '"NaN"'],
    [true, 'true'],
  ])('gives %s an honest content', (value, content) => {
    expect(normalizeToolResult(value)).toEqual({ version: 1, status: 'success', content });
  });

  it('bounds a multi-megabyte string and says it was cut', () => {
    const result = normalizeToolResult('x'.repeat(3_000_000), { maxContentLength: 1_000 });
    expect(result.content.length).toBeLessThanOrEqual(1_000);
    expect(result.content).toMatch(/cut: 3000000 characters in all/);
  });

  it('bounds deep nesting and huge arrays', () => {
    let deep: unknown = 'bottom';
    for (let index = 0; index < 10_000; index += 1) deep = { deeper: deep };
    expect(normalizeToolResult(deep).content).toContain('nested too deep');
    const wide = normalizeToolResult(Array.from({ length: 100_000 }, (_, index) => index));
    expect(wide.content).toContain('more items');
  });

  it('never throws and always returns a bounded result with a known status (property)', () => {
    fc.assert(
      fc.property(
        fc.anything({ withBigInt: true, withMap: true, withSet: true, withTypedArray: true, withSparseArray: true }),
        (value) => {
          const result = normalizeToolResult(value, { maxContentLength: 5_000 });
          expect(result.version).toBe(1);
          expect(TOOL_RESULT_STATUSES).toContain(result.status);
          expect(typeof result.content).toBe('string');
          expect(result.content.length).toBeLessThanOrEqual(5_000);
        },
      ),
      { numRuns: 1_000 },
    );
  });
});
