import type { Context } from 'hono';
import type { z } from 'zod';
import { idSchema } from '../api/api-schemas.js';
import { WebError } from './web-error.js';

/** The largest request body the API reads. */
export const MAX_BODY_BYTES = 1024 * 1024;

function describeIssues(error: z.ZodError): { message: string; issues: { path: string; message: string }[] } {
  const issues = error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  const first = issues[0];
  const where = first?.path ? `${first.path}: ` : '';
  return { message: `${where}${first?.message ?? 'invalid input'}`, issues };
}

/** A URL id, or `invalid_id` naming the parameter. */
export function parseId(c: Context, name: string): string {
  const value = c.req.param(name) ?? '';
  const parsed = idSchema.safeParse(value);
  if (!parsed.success)
    throw new WebError(
      'invalid_id',
      `${name} is not a valid id: ids are 1-128 letters, digits, ".", "_", ":" or "-" (no slashes).`,
    );
  return parsed.data;
}

/** The query string, validated; an unknown or malformed parameter answers `invalid_request`. */
export function parseQuery<Schema extends z.ZodType>(c: Context, schema: Schema): z.output<Schema> {
  const url = new URL(c.req.url);
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) {
    if (key in query) throw new WebError('invalid_request', `Query parameter ${key} is given more than once.`);
    query[key] = value;
  }
  const parsed = schema.safeParse(query);
  if (!parsed.success) {
    const { message, issues } = describeIssues(parsed.error);
    throw new WebError('invalid_request', `Invalid query: ${message}`, { issues });
  }
  return parsed.data;
}

/**
 * The JSON body, validated. Bodies must say `Content-Type: application/json` (a form post from
 * another site cannot), stay under 1 MiB (checked while reading, whatever Content-Length says),
 * and parse.
 */
export async function parseBody<Schema extends z.ZodType>(c: Context, schema: Schema): Promise<z.output<Schema>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type))
    throw new WebError('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.');
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const text = await readBounded(c.req.raw);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new WebError('invalid_json', 'The body is not valid JSON; send one JSON object.');
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const { message, issues } = describeIssues(parsed.error);
    throw new WebError('invalid_request', `Invalid body: ${message}`, { issues });
  }
  return parsed.data;
}

function tooLarge(): WebError {
  return new WebError('payload_too_large', `The body is larger than ${MAX_BODY_BYTES} bytes; send less.`);
}

async function readBounded(request: Request): Promise<string> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
