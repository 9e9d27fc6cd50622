import { readArtifactInputSchema } from '@clawsmith/artifacts';
import { artifactReadQuerySchema } from '../api/api-schemas.js';
import { parseId, parseQuery } from '../http/parse-request.js';
import { WebError } from '../http/web-error.js';
import type { Route } from './route.js';

const decoder = new TextDecoder('utf-8', { fatal: false });

/** A session's artifacts: the list, and reads by byte range, line range or search with `read_artifact`'s limits. */
export const artifactRoutes: readonly Route[] = [
  {
    method: 'GET',
    path: '/api/sessions/:sessionId/artifacts',
    async handler(c, web) {
      const sessionId = parseId(c, 'sessionId');
      await web.store.requireSession(sessionId);
      return c.json({ artifacts: await web.artifacts.list(sessionId) });
    },
  },
  {
    method: 'GET',
    path: '/api/sessions/:sessionId/artifacts/:artifactId',
    async handler(c, web) {
      const sessionId = parseId(c, 'sessionId');
      const id = parseId(c, 'artifactId');
      const query = parseQuery(c, artifactReadQuerySchema);
      await web.store.requireSession(sessionId);
      // The artifact is looked up under this session only: another session's id answers
      // artifact_not_found exactly like an unknown one.
      const info = await web.artifacts.info(sessionId, id);
      if (Object.keys(query).length === 0) return c.json({ artifact: info });
      const parsed = readArtifactInputSchema.safeParse({ id, ...query });
      if (!parsed.success)
        throw new WebError('invalid_request', `Invalid artifact read: ${parsed.error.issues[0]?.message ?? ''}`);
      const input = parsed.data;
      if (input.pattern !== undefined) {
        const result = await web.artifacts.search(sessionId, id, {
          pattern: input.pattern,
          ...(input.regex !== undefined ? { regex: input.regex } : {}),
          ...(input.ignoreCase !== undefined ? { ignoreCase: input.ignoreCase } : {}),
          ...(input.maxMatches !== undefined ? { maxMatches: input.maxMatches } : {}),
          ...(input.contextLines !== undefined ? { contextLines: input.contextLines } : {}),
          ...(input.fromLine !== undefined ? { fromLine: input.fromLine } : {}),
        });
        return c.json({ artifact: info, mode: 'search', ...result });
      }
      if (input.startLine !== undefined) {
        const { bytes, ...rest } = await web.artifacts.readLines(sessionId, id, {
          startLine: input.startLine,
          ...(input.endLine !== undefined ? { endLine: input.endLine } : {}),
        });
        return c.json({ artifact: info, mode: 'lines', text: decoder.decode(bytes), ...rest });
      }
      const { bytes, ...rest } = await web.artifacts.readBytes(sessionId, id, {
        offset: input.offset ?? 0,
        ...(input.length !== undefined ? { length: input.length } : {}),
      });
      return c.json({ artifact: info, mode: 'bytes', text: decoder.decode(bytes), ...rest });
    },
  },
];
