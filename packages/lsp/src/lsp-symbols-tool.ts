import { defineTool } from '@clawsmith/tool-protocol';
import type { DocumentSymbol, SymbolInformation, WorkspaceSymbol } from 'vscode-languageserver-protocol';
import { z } from 'zod';
import { LSP_ERROR_CODES, LspError } from './lsp-error.js';
import type { LspService } from './lsp-service.js';
import { documentSymbolRequest, SymbolKind, workspaceSymbolRequest } from './protocol-values.js';
import { displayLocation } from './workspace-path.js';

const inputSchema = z
  .object({
    path: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .describe('A file, relative to the workspace: its outline, or (with query) the language to search.'),
    query: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('Search the whole workspace for symbols whose name matches this text.'),
  })
  .strict()
  .refine((input) => input.path !== undefined || input.query !== undefined, {
    message: 'Give "path" for a file outline, or "query" (and a "path" of that language) to search the workspace.',
  });

const KIND_NAMES = new Map<number, string>(
  Object.entries(SymbolKind).map(([name, value]) => [value as number, name.toLowerCase()]),
);

function kindName(kind: number): string {
  return KIND_NAMES.get(kind) ?? 'symbol';
}

function outline(
  symbols: readonly (DocumentSymbol | SymbolInformation)[],
  limit: number,
): { lines: string[]; total: number } {
  const lines: string[] = [];
  let total = 0;
  const visit = (symbol: DocumentSymbol | SymbolInformation, depth: number) => {
    total += 1;
    const line = 'location' in symbol ? symbol.location.range.start.line : symbol.selectionRange.start.line;
    if (lines.length < limit)
      lines.push(`${'  '.repeat(depth)}${kindName(symbol.kind)} ${symbol.name} (line ${line + 1})`);
    if ('children' in symbol) for (const child of symbol.children ?? []) visit(child, depth + 1);
  };
  for (const symbol of symbols) visit(symbol, 0);
  return { lines, total };
}

/** `lsp_symbols`: the outline of a file, or a search for symbols across the workspace. */
export function createLspSymbolsTool(service: LspService) {
  return defineTool({
    name: 'lsp_symbols',
    description:
      'Symbols from the language server: with "path", the outline of that file (classes, functions, variables with 1-based lines); with "query", symbols across the workspace whose name matches (give a "path" of that language to pick the server). At most 200 listed.',
    risk: 'read',
    capabilities: ['filesystem.read'],
    concurrencySafe: true,
    deferred: true,
    inputSchema,
    searchMetadata: {
      aliases: ['outline', 'document symbols', 'workspace symbols', 'find class', 'find function'],
      tags: ['lsp', 'code', 'navigation', 'symbols'],
      searchHint: 'Use to list what a file declares, or to find where a named class or function lives.',
    },
    summarize: (input) => (input.query ? `symbols matching ${input.query}` : `outline of ${input.path}`),
    async execute(input, context) {
      const limit = service.limits.maxSymbols;
      const timing = { timeoutMs: service.limits.requestTimeoutMs, signal: context.signal };
      if (input.query === undefined) {
        const prepared = await service.prepare(context, input.path!);
        const result = await prepared.server.process.request(
          documentSymbolRequest,
          { textDocument: { uri: prepared.uri } },
          timing,
        );
        const { lines, total } = outline(result ?? [], limit);
        if (total === 0) return `${prepared.file.relative} declares no symbols.`;
        const more = total > lines.length ? [`… ${total - lines.length} more not shown (limit ${limit}).`] : [];
        return [`${total} symbol${total === 1 ? '' : 's'} in ${prepared.file.relative}:`, ...lines, ...more].join('\n');
      }
      if (input.path === undefined) {
        throw new LspError(
          LSP_ERROR_CODES.noServer,
          'A workspace symbol search needs "path": any file of the language to search (for example src/index.ts), so the right server answers.',
        );
      }
      const prepared = await service.prepare(context, input.path);
      const result = (await prepared.server.process.request(workspaceSymbolRequest, { query: input.query }, timing)) as
        (SymbolInformation | WorkspaceSymbol)[] | null;
      const symbols = (result ?? []).map((symbol) => {
        const location = symbol.location;
        const shown = displayLocation(prepared.workspaceRoot, location.uri);
        const line = 'range' in location ? `:${location.range.start.line + 1}` : '';
        return {
          inWorkspace: shown.inWorkspace,
          text: `${kindName(symbol.kind)} ${symbol.name}  ${shown.path}${line}`,
        };
      });
      // Declarations inside the workspace first: they are what a search in a project is usually for.
      symbols.sort((left, right) => Number(right.inWorkspace) - Number(left.inWorkspace));
      if (symbols.length === 0) return `No symbols match ${JSON.stringify(input.query)}.`;
      const shown = symbols.slice(0, limit).map((symbol) => symbol.text);
      const more =
        symbols.length > shown.length
          ? [`… ${symbols.length - shown.length} more not shown (limit ${limit}); narrow the query.`]
          : [];
      return [
        `${symbols.length} symbol${symbols.length === 1 ? '' : 's'} match ${JSON.stringify(input.query)}:`,
        ...shown,
        ...more,
      ].join('\n');
    },
  });
}
