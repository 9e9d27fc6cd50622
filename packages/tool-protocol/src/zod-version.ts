import { ClawsmithError } from './clawsmith-error.js';

/**
 * Throws a clear error when `schema` is not a zod 4 schema. A tool written against zod 3 would
 * otherwise fail deep inside schema conversion with an unreadable `reading 'def'`: the two major
 * versions share names but not their internals. zod 3.25+ also ships zod 4 as `zod/v4`.
 */
export function assertZod4Schema(schema: unknown, toolName: string): void {
  if (typeof schema === 'object' && schema !== null && '_zod' in schema) return;
  const looksLikeZod3 = typeof schema === 'object' && schema !== null && '_def' in schema;
  throw new ClawsmithError(
    'unsupported_schema',
    looksLikeZod3
      ? `Tool ${toolName}: inputSchema is a zod 3 schema; clawsmith needs zod ^4.0.0. Install zod@4, or with zod 3.25+ import { z } from 'zod/v4'.`
      : `Tool ${toolName}: inputSchema is not a zod schema; clawsmith needs a zod ^4.0.0 schema (for a JSON Schema, use z.fromJSONSchema(schema)).`,
  );
}
