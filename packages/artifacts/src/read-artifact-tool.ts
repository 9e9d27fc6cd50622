import {
  ClawsmithError,
  defineTool,
  toolResultFromError,
  toolSuccess,
  type ToolDefinition,
  type ToolExecutionContext,
  type ToolExecutionResult,
} from '@clawsmith/tool-protocol';
import { InvalidArtifactRangeError } from './artifact-errors.js';
import type { ArtifactStore } from './artifact-store.js';
import { formatByteRange, formatLineRange, formatSearch } from './read-artifact-format.js';
import { readArtifactInputSchema, type ReadArtifactInput } from './read-artifact-input.js';
import { utf8BoundaryBefore } from './range-reads.js';

/** The `read_artifact` definition; its `execute` always resolves to a {@link ToolExecutionResult}. */
export interface ReadArtifactTool extends ToolDefinition<ReadArtifactInput> {
  execute(input: ReadArtifactInput, context: ToolExecutionContext): Promise<ToolExecutionResult>;
}

/**
 * The `read_artifact` tool over `store`: reads an artifact of the calling session
 * (`context.sessionId`) by byte range, line range or keyword search. Risk `read`, capability
 * `session.read`, safe to run in parallel. Every answer is bounded by the store's limits and
 * says where the next read starts.
 */
export function createReadArtifactTool(store: ArtifactStore): ReadArtifactTool {
  return defineTool({
    name: 'read_artifact',
    description:
      'Read a stored tool output (artifact) of this session in bounded pieces: a byte range (offset, length), a line range ' +
      '(startLine, endLine) or a line-by-line search (pattern, literal unless regex is true). Use the id from the result that ' +
      'mentioned the artifact. Each answer says where the next read starts.',
    risk: 'read',
    capabilities: ['session.read'],
    concurrencySafe: true,
    inputSchema: readArtifactInputSchema,
    searchMetadata: { aliases: ['read tool output', 'command log'], tags: ['artifact', 'output', 'log'] },
    summarize: (input) =>
      input.pattern !== undefined
        ? `Search artifact ${input.id} for ${JSON.stringify(input.pattern).slice(0, 80)}`
        : input.startLine !== undefined
          ? `Read lines ${input.startLine}-${input.endLine ?? '…'} of artifact ${input.id}`
          : `Read bytes from ${input.offset ?? 0} of artifact ${input.id}`,
    async execute(rawInput, context): Promise<ToolExecutionResult> {
      const parsed = readArtifactInputSchema.safeParse(rawInput);
      try {
        if (!parsed.success)
          throw new InvalidArtifactRangeError(parsed.error.issues.map((issue) => issue.message).join(' '));
        const input = parsed.data;
        const sessionId = context.sessionId;
        if (input.pattern !== undefined) {
          const { id: _id, ...search } = input;
          const result = await store.search(sessionId, input.id, { ...search, pattern: input.pattern });
          return toolSuccess(formatSearch(input, result, store.limits), {
            display: { kind: 'artifact', title: `Searched artifact ${input.id}` },
          });
        }
        if (input.startLine !== undefined) {
          const result = await store.readLines(sessionId, input.id, {
            startLine: input.startLine,
            ...(input.endLine !== undefined ? { endLine: input.endLine } : {}),
          });
          return toolSuccess(formatLineRange(input.id, result), {
            display: { kind: 'artifact', title: `Read lines of artifact ${input.id}` },
          });
        }
        const info = await store.info(sessionId, input.id);
        const result = await store.readBytes(sessionId, input.id, {
          offset: input.offset ?? 0,
          ...(input.length !== undefined ? { length: input.length } : {}),
        });
        // Ends a piece on a character boundary so the next read starts on one.
        const end =
          result.nextOffset === undefined ? result.bytes.length : utf8BoundaryBefore(result.bytes, result.bytes.length);
        const trimmed =
          end > 0 && end < result.bytes.length
            ? {
                ...result,
                bytes: result.bytes.subarray(0, end),
                endOffset: result.offset + end,
                nextOffset: result.offset + end,
              }
            : result;
        return toolSuccess(formatByteRange(input.id, info.state, trimmed), {
          display: { kind: 'artifact', title: `Read bytes of artifact ${input.id}` },
        });
      } catch (error) {
        if (ClawsmithError.isInstance(error)) return toolResultFromError(error);
        throw error;
      }
    },
  }) as ReadArtifactTool;
}
