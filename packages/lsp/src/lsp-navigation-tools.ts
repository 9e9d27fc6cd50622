import { defineTool, type ToolExecutionContext } from '@clawsmith/tool-protocol';
import type { Hover, MarkedString, MarkupContent } from 'vscode-languageserver-protocol';
import { z } from 'zod';
import { formatLocations, plainLocations, sortLocations } from './format-locations.js';
import type { LspService, PreparedDocument } from './lsp-service.js';
import { definitionRequest, hoverRequest, referencesRequest } from './protocol-values.js';
import { positionInputSchema, toPosition, type PositionInput } from './position-input.js';

const SEARCH_TAGS = ['lsp', 'code', 'navigation', 'typescript', 'python'];

async function atPosition(service: LspService, context: ToolExecutionContext, input: PositionInput) {
  const prepared: PreparedDocument = await service.prepare(context, input.path);
  const text = prepared.server.documents.textOf(prepared.uri) ?? '';
  const { position, word } = toPosition(text, input);
  const where = `${prepared.file.relative}:${input.line}:${input.column}${word ? ` (${word})` : ''}`;
  return { prepared, position, where, timing: { timeoutMs: service.limits.requestTimeoutMs, signal: context.signal } };
}

/** `lsp_definition`: where the symbol at a position is defined. */
export function createLspDefinitionTool(service: LspService) {
  return defineTool({
    name: 'lsp_definition',
    description:
      'Where the symbol at a position (1-based line and column) is defined, from the language server: workspace-relative path, line, column and the line itself.',
    risk: 'read',
    capabilities: ['filesystem.read'],
    concurrencySafe: true,
    deferred: true,
    inputSchema: positionInputSchema,
    searchMetadata: {
      aliases: ['go to definition', 'find declaration', 'jump to definition'],
      tags: SEARCH_TAGS,
      searchHint: 'Use to find where a function, type or variable used in a file is declared.',
    },
    summarize: (input) => `definition at ${input.path}:${input.line}:${input.column}`,
    async execute(input, context) {
      const { prepared, position, where, timing } = await atPosition(service, context, input);
      const result = await prepared.server.process.request(
        definitionRequest,
        { textDocument: { uri: prepared.uri }, position },
        timing,
      );
      const locations = plainLocations(result).slice(0, service.limits.defaultReferences);
      if (locations.length === 0) return `No definition found for ${where}.`;
      return [`Definition of ${where}:`, ...formatLocations(prepared.workspaceRoot, locations)].join('\n');
    },
  });
}

const referencesSchema = positionInputSchema.extend({
  limit: z.number().int().min(1).max(200).optional().describe('Most references listed; default 50, at most 200.'),
});

/** `lsp_references`: every use of the symbol at a position, bounded. */
export function createLspReferencesTool(service: LspService) {
  return defineTool({
    name: 'lsp_references',
    description:
      'Every reference to the symbol at a position (1-based line and column), its declaration included, from the language server; sorted by path, at most `limit` (default 50, max 200) listed with the total count.',
    risk: 'read',
    capabilities: ['filesystem.read'],
    concurrencySafe: true,
    deferred: true,
    inputSchema: referencesSchema,
    searchMetadata: {
      aliases: ['find references', 'find usages', 'who calls', 'callers'],
      tags: SEARCH_TAGS,
      searchHint: 'Use before changing a function or type to see every place that uses it.',
    },
    summarize: (input) => `references at ${input.path}:${input.line}:${input.column}`,
    async execute(input, context) {
      const { prepared, position, where, timing } = await atPosition(service, context, input);
      const result = await prepared.server.process.request(
        referencesRequest,
        { textDocument: { uri: prepared.uri }, position, context: { includeDeclaration: true } },
        timing,
      );
      const all = sortLocations(plainLocations(result));
      if (all.length === 0) return `No references found for ${where}.`;
      const limit = Math.min(input.limit ?? service.limits.defaultReferences, service.limits.maxReferences);
      const shown = all.slice(0, limit);
      const files = new Set(all.map((location) => location.uri)).size;
      const lines = [
        `${all.length} reference${all.length === 1 ? '' : 's'} to ${where} in ${files} file${files === 1 ? '' : 's'}:`,
        ...formatLocations(prepared.workspaceRoot, shown),
      ];
      if (all.length > shown.length) {
        lines.push(
          `… ${all.length - shown.length} more not shown (limit ${limit}); raise "limit" (at most ${service.limits.maxReferences}).`,
        );
      }
      return lines.join('\n');
    },
  });
}

function hoverText(hover: Hover): string {
  const parts = (Array.isArray(hover.contents) ? hover.contents : [hover.contents]) as (MarkedString | MarkupContent)[];
  return parts
    .map((part) =>
      typeof part === 'string'
        ? part
        : 'language' in part
          ? `\`\`\`${part.language}\n${part.value}\n\`\`\``
          : part.value,
    )
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .join('\n\n');
}

/** `lsp_hover`: the type and documentation of the symbol at a position. */
export function createLspHoverTool(service: LspService) {
  return defineTool({
    name: 'lsp_hover',
    description:
      'The type signature and documentation of the symbol at a position (1-based line and column), from the language server.',
    risk: 'read',
    capabilities: ['filesystem.read'],
    concurrencySafe: true,
    deferred: true,
    inputSchema: positionInputSchema,
    searchMetadata: {
      aliases: ['type of', 'signature', 'quick info', 'documentation of symbol'],
      tags: SEARCH_TAGS,
      searchHint: 'Use to learn the type of a variable or the signature of a function without reading its source.',
    },
    summarize: (input) => `hover at ${input.path}:${input.line}:${input.column}`,
    async execute(input, context) {
      const { prepared, position, where, timing } = await atPosition(service, context, input);
      const hover = await prepared.server.process.request(
        hoverRequest,
        { textDocument: { uri: prepared.uri }, position },
        timing,
      );
      const text = hover ? hoverText(hover) : '';
      if (!text) return `Nothing to show for ${where}.`;
      const limit = service.limits.maxHoverCharacters;
      return `${where}:\n${text.length > limit ? `${text.slice(0, limit)}… (cut at ${limit} characters)` : text}`;
    },
  });
}
