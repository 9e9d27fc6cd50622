import { z } from 'zod';

const BYTE_FIELDS = ['offset', 'length'] as const;
const LINE_FIELDS = ['startLine', 'endLine'] as const;
const SEARCH_FIELDS = ['pattern', 'regex', 'ignoreCase', 'maxMatches', 'contextLines', 'fromLine'] as const;

/**
 * Input of `read_artifact`: an id plus exactly one of a byte range, a line range or a search.
 * The id is any string here on purpose: a malformed or path-like id must get the same
 * `artifact_not_found` answer as an unknown one, not a schema error that tells them apart.
 */
export const readArtifactInputSchema = z
  .object({
    id: z.string().describe('The artifact id from the tool result that mentioned it (art_ and 32 hex digits).'),
    offset: z.number().int().min(0).optional().describe('Byte range: first byte to read, 0-based.'),
    length: z.number().int().min(1).optional().describe('Byte range: bytes to read (capped at 65,536).'),
    startLine: z.number().int().min(1).optional().describe('Line range: first line, 1-based.'),
    endLine: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Line range: last line, inclusive (at most 2,000 lines per read).'),
    pattern: z.string().min(1).optional().describe('Search: text to find, line by line.'),
    regex: z.boolean().optional().describe('Search: treat pattern as a JavaScript regular expression (default false).'),
    ignoreCase: z.boolean().optional().describe('Search: ignore letter case (default false).'),
    maxMatches: z.number().int().min(1).optional().describe('Search: matches to return (default 20, at most 100).'),
    contextLines: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('Search: lines of context around each match (default 0, at most 10).'),
    fromLine: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Search: first line to search; continue a search with the line it gave.'),
  })
  .strict()
  .superRefine((input, context) => {
    const present = (fields: readonly string[]): boolean =>
      fields.some((field) => (input as Record<string, unknown>)[field] !== undefined);
    const modes = [present(BYTE_FIELDS), present(LINE_FIELDS), present(SEARCH_FIELDS)].filter(Boolean).length;
    if (modes !== 1) {
      context.addIssue({
        code: 'custom',
        message:
          'Give exactly one of: a byte range (offset, length), a line range (startLine, endLine), or a search (pattern with optional regex, ignoreCase, maxMatches, contextLines, fromLine).',
      });
      return;
    }
    if (present(LINE_FIELDS) && input.startLine === undefined) {
      context.addIssue({ code: 'custom', path: ['startLine'], message: 'A line range needs startLine (1-based).' });
    }
    if (input.startLine !== undefined && input.endLine !== undefined && input.endLine < input.startLine) {
      context.addIssue({ code: 'custom', path: ['endLine'], message: 'endLine must be at least startLine.' });
    }
    if (present(SEARCH_FIELDS) && input.pattern === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['pattern'],
        message: 'A search needs pattern: the text (or regular expression) to find.',
      });
    }
  });

/** The parsed input of `read_artifact`. */
export type ReadArtifactInput = z.output<typeof readArtifactInputSchema>;
