import { extname } from 'node:path';
import { defineTool, type ToolExecutionContext } from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { fetchDiagnostics } from './fetch-diagnostics.js';
import { formatDiagnostics, type FileDiagnostic } from './format-diagnostics.js';
import { LSP_ERROR_CODES, LspError } from './lsp-error.js';
import type { LspService } from './lsp-service.js';

const inputSchema = z
  .object({
    path: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .describe('File to check, relative to the workspace. Leave out to check the files changed in this turn.'),
  })
  .strict();

async function diagnosticsOf(service: LspService, context: ToolExecutionContext, path: string) {
  const prepared = await service.prepare(context, path);
  const result = await fetchDiagnostics(prepared.server, prepared.uri, service.limits, context.signal);
  return {
    path: prepared.file.relative,
    items: result.diagnostics.map((diagnostic): FileDiagnostic => ({ path: prepared.file.relative, diagnostic })),
    ...(result.staleNote ? { staleNote: result.staleNote } : {}),
  };
}

/** `lsp_diagnostics`: errors and warnings of a file, or of the files changed in this turn, from the language server. */
export function createLspDiagnosticsTool(service: LspService) {
  return defineTool({
    name: 'lsp_diagnostics',
    description:
      'Type errors, warnings and hints from the language server (TypeScript/JavaScript, Python) for one file, or, without a path, for the files changed in this turn. Always on the current file content. Errors first, at most 100 listed with counts of the rest; positions are 1-based line:column.',
    risk: 'read',
    capabilities: ['filesystem.read'],
    concurrencySafe: true,
    deferred: true,
    inputSchema,
    searchMetadata: {
      aliases: ['type check', 'compile errors', 'lint errors', 'diagnostics', 'problems'],
      tags: ['lsp', 'typescript', 'python', 'errors', 'code'],
      searchHint: 'Use after editing code to learn whether it still type-checks, without running the build.',
    },
    summarize: (input) => `diagnostics of ${input.path ?? 'the files changed in this turn'}`,
    async execute(input, context) {
      if (input.path !== undefined) {
        const result = await diagnosticsOf(service, context, input.path);
        const text = formatDiagnostics(result.items, [result.path], service.limits.maxDiagnostics);
        return result.staleNote ? `${text}\n${result.staleNote}` : text;
      }
      const changed = await service.changedFiles(context);
      if (changed.length === 0) {
        throw new LspError(
          LSP_ERROR_CODES.noChangedFiles,
          'No existing file has changed in this turn, so there is nothing to check by default; pass "path" to check a file.',
        );
      }
      const root = service.workspaceRootOf(context);
      const served = changed.filter((file) => service.specFor(root, file.absolute));
      const skipped = changed.filter((file) => !service.specFor(root, file.absolute));
      const checked = served.slice(0, service.limits.maxChangedFiles);
      const items: FileDiagnostic[] = [];
      const notes: string[] = [];
      for (const file of checked) {
        const result = await diagnosticsOf(service, context, file.relative);
        items.push(...result.items);
        if (result.staleNote) notes.push(`${result.path}: ${result.staleNote}`);
      }
      if (served.length > checked.length) {
        notes.push(
          `${served.length - checked.length} more changed files were not checked (limit ${service.limits.maxChangedFiles}); pass "path" to check one.`,
        );
      }
      if (skipped.length > 0) {
        const extensions = [...new Set(skipped.map((file) => extname(file.relative) || '(none)'))].join(' ');
        notes.push(`${skipped.length} changed files have no language server (${extensions}) and were not checked.`);
      }
      if (checked.length === 0) return notes.join('\n');
      const text = formatDiagnostics(
        items,
        checked.map((file) => file.relative),
        service.limits.maxDiagnostics,
      );
      return [text, ...notes].join('\n');
    },
  });
}
