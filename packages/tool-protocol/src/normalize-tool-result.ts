import { z } from 'zod';
import { boundText } from './bounded-text.js';
import { sanitizeDisplay } from './sanitize-display.js';
import { TOOL_RESULT_STATUSES, type ToolExecutionResult } from './tool-result.js';

/** Bounds that {@link normalizeToolResult} applies. */
export interface NormalizeLimits {
  /** Most characters of content kept; default 10,000,000 (core externalises far below that). */
  readonly maxContentLength: number;
  /** Deepest object nesting serialised; default 12. */
  readonly maxDepth: number;
  /** Most values visited while serialising an object; default 20,000. */
  readonly maxNodes: number;
}

/** The default {@link NormalizeLimits}. */
export const DEFAULT_NORMALIZE_LIMITS: NormalizeLimits = Object.freeze({
  maxContentLength: 10_000_000,
  maxDepth: 12,
  maxNodes: 20_000,
});

const artifactReferenceSchema = z.object({
  id: z.string().min(1).max(200),
  mediaType: z.string().max(200),
  byteLength: z.number().int().nonnegative(),
  lineCount: z.number().int().nonnegative(),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});

const executionResultSchema = z.object({
  version: z.literal(1),
  status: z.enum(TOOL_RESULT_STATUSES as [string, ...string[]]),
  content: z.string(),
  code: z.string().max(200).optional(),
  retryable: z.boolean().optional(),
  exitCode: z.number().int().optional(),
  durationMs: z.number().nonnegative().optional(),
  display: z.unknown().optional(),
  artifact: artifactReferenceSchema.optional(),
});

function safeSerialize(value: unknown, limits: NormalizeLimits): string {
  let nodes = 0;
  const ancestors: object[] = [];
  const render = (current: unknown, depth: number): unknown => {
    nodes += 1;
    if (nodes > limits.maxNodes) return '[… more values left out]';
    switch (typeof current) {
      case 'string':
        return current.length > limits.maxContentLength ? boundText(current, limits.maxContentLength) : current;
      case 'number':
        return Number.isFinite(current) ? current : String(current);
      case 'boolean':
        return current;
      case 'bigint':
        return `${current.toString()}n`;
      case 'undefined':
        return '[undefined]';
      case 'function':
        return '[function]';
      case 'symbol':
        return `[${String(current.description === undefined ? 'symbol' : `symbol ${current.description}`)}]`;
    }
    if (current === null) return null;
    const object = current as object;
    if (ancestors.includes(object)) return '[circular]';
    if (depth >= limits.maxDepth) return '[… nested too deep]';
    if (current instanceof Date) return Number.isNaN(current.getTime()) ? '[invalid date]' : current.toISOString();
    if (current instanceof Error) return { error: current.name, message: current.message };
    if (current instanceof Uint8Array) return `[${current.byteLength} bytes]`;
    ancestors.push(object);
    try {
      if (Array.isArray(current)) {
        const items: unknown[] = [];
        for (let index = 0; index < current.length; index += 1) {
          if (nodes > limits.maxNodes) {
            items.push(`[… ${current.length - index} more items]`);
            break;
          }
          items.push(render(readProperty(current, index), depth + 1));
        }
        return items;
      }
      const output: Record<string, unknown> = {};
      let keys: string[];
      try {
        keys = Object.keys(object);
      } catch {
        return '[unreadable object]';
      }
      for (const key of keys) {
        if (nodes > limits.maxNodes) {
          output['…'] = 'more keys left out';
          break;
        }
        output[key] = render(readProperty(object, key), depth + 1);
      }
      return output;
    } finally {
      ancestors.pop();
    }
  };
  try {
    return JSON.stringify(render(value, 0), null, 2) ?? '';
  } catch {
    return '[a value that could not be serialised]';
  }
}

function readProperty(object: object, key: string | number): unknown {
  try {
    return (object as Record<string | number, unknown>)[key];
  } catch (error) {
    return `[property threw: ${error instanceof Error ? error.message.slice(0, 200) : 'unknown error'}]`;
  }
}

/**
 * Turns whatever a tool returned into a bounded {@link ToolExecutionResult}. Never throws.
 *
 * - A string becomes a `success` with that content.
 * - A valid ToolExecutionResult (version 1, a known status, string content, well-formed
 *   metadata) keeps its status and metadata; its display is sanitised.
 * - Anything else, including an object with `version`/`status` but no valid string `content`,
 *   is serialised (bounded, cycles and throwing getters survived) as `success` content: it never
 *   gains an error or denied status that way.
 */
export function normalizeToolResult(value: unknown, limits: Partial<NormalizeLimits> = {}): ToolExecutionResult {
  const bounds = { ...DEFAULT_NORMALIZE_LIMITS, ...limits };
  try {
    if (typeof value === 'string') {
      return { version: 1, status: 'success', content: boundText(value, bounds.maxContentLength) };
    }
    if (value === undefined) return { version: 1, status: 'success', content: '(the tool returned no output)' };
    if (typeof value === 'object' && value !== null) {
      const parsed = executionResultSchema.safeParse(value);
      if (parsed.success) {
        const result = parsed.data;
        return {
          version: 1,
          status: result.status as ToolExecutionResult['status'],
          content: boundText(result.content, bounds.maxContentLength),
          ...(result.code !== undefined ? { code: result.code } : {}),
          ...(result.retryable !== undefined ? { retryable: result.retryable } : {}),
          ...(result.display !== undefined ? { display: sanitizeDisplay(result.display) } : {}),
          ...(result.artifact !== undefined ? { artifact: result.artifact } : {}),
          ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
          ...(result.durationMs !== undefined ? { durationMs: result.durationMs } : {}),
        };
      }
    }
    return { version: 1, status: 'success', content: boundText(safeSerialize(value, bounds), bounds.maxContentLength) };
  } catch {
    return { version: 1, status: 'success', content: '[a value that could not be read]' };
  }
}
