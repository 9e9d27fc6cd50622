import { defineTool, type ToolDefinition } from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { MemoryIndex, type MemoryHit, type MemoryIndexOptions } from './memory-index.js';

/** The name of the memory tool. */
export const MEMORY_SEARCH_TOOL_NAME = 'memory_search';
/** Limits of one `memory_search` answer. */
export const MEMORY_SEARCH_LIMITS = Object.freeze({
  /** Hits returned when the call gives no `limit`. */
  defaultResults: 5,
  /** Most hits one call may ask for. */
  maxResults: 20,
  /** Characters of one snippet. */
  snippetLength: 400,
});

const memorySearchInput = z.object({
  query: z.string().min(1).max(500).describe('A few words the note would contain; no search syntax needed.'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MEMORY_SEARCH_LIMITS.maxResults)
    .optional()
    .describe(`How many snippets (default ${MEMORY_SEARCH_LIMITS.defaultResults}).`),
});

/** The input of `memory_search`. */
export type MemorySearchInput = z.output<typeof memorySearchInput>;

/** The tool and the index behind it; `close()` closes the index when the session ends. */
export interface MemorySearch {
  readonly tool: ToolDefinition<MemorySearchInput, string>;
  close(): void;
}

function cut(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

/** The line of the chunk that holds most of the query's words, and a bounded snippet around it. */
export function snippetOf(hit: MemoryHit, terms: readonly string[]): { line: number; snippet: string } {
  const lines = hit.text.split('\n').map((line) => line.trimEnd());
  const stems = terms.map((term) => (term.length > 4 ? term.slice(0, term.length - 2) : term));
  let best = 0;
  let bestScore = -1;
  lines.forEach((line, index) => {
    if (line === '') return;
    const lower = line.toLowerCase();
    // On a tie a line of text beats a heading: the heading comes along as context anyway.
    const score = stems.filter((stem) => lower.includes(stem)).length - (line.startsWith('#') ? 0.5 : 0);
    if (score > bestScore) {
      best = index;
      bestScore = score;
    }
  });
  const window = lines
    .slice(Math.max(0, best - 1), best + 2)
    .filter((line) => line !== '')
    .join('\n');
  return { line: hit.line + best, snippet: cut(window, MEMORY_SEARCH_LIMITS.snippetLength) };
}

/**
 * `memory_search` (risk `read`, capability `filesystem.read`, deferred, concurrency-safe): ranked
 * snippets (BM25) from the person's long-term notes and the workspace's `AGENTS.md`/`CLAWSMITH.md`,
 * each with its source and line. The index is opened on the first call.
 */
export function createMemorySearch(options: MemoryIndexOptions): MemorySearch {
  let index: MemoryIndex | undefined;
  const tool = defineTool({
    name: MEMORY_SEARCH_TOOL_NAME,
    description:
      "Search the person's long-term memory: their notes (markdown in the clawsmith home's memory folder) and this workspace's AGENTS.md and CLAWSMITH.md. Returns the best matching snippets with source and line. Read-only.",
    risk: 'read',
    capabilities: ['filesystem.read'],
    concurrencySafe: true,
    deferred: true,
    inputSchema: memorySearchInput,
    pathArguments: [],
    searchMetadata: {
      aliases: ['memory', 'recall', 'notes', 'remember', 'long-term memory'],
      tags: ['memory', 'notes', 'knowledge'],
      searchHint: 'Use this to recall what the person wrote down before: preferences, decisions, how-tos.',
    },
    summarize: (input) => `search memory for ${JSON.stringify(cut(input.query, 80))}`,
    async execute(input, context) {
      index ??= new MemoryIndex(options);
      const limit = input.limit ?? MEMORY_SEARCH_LIMITS.defaultResults;
      const { hits, terms } = index.search(input.query, { workspaceRoot: context.workspaceRoot, limit });
      if (hits.length === 0) {
        const { files } = index.counts(context.workspaceRoot);
        return `No memory matches ${JSON.stringify(cut(input.query, 80))} (${files} files indexed: notes in <home>/memory/*.md, and AGENTS.md/CLAWSMITH.md of the workspace). Try other words.`;
      }
      const blocks = hits.map((hit) => {
        const { line, snippet } = snippetOf(hit, terms);
        return `${hit.source}:${line}\n${snippet
          .split('\n')
          .map((text) => `  ${text}`)
          .join('\n')}`;
      });
      return `${hits.length} match${hits.length === 1 ? '' : 'es'}, best first:\n\n${blocks.join('\n\n')}`;
    },
  });
  return {
    tool,
    close: () => {
      index?.close();
      index = undefined;
    },
  };
}
