import type { AnyToolDefinition } from '@clawsmith/tool-protocol';
import { createLspDiagnosticsTool } from './lsp-diagnostics-tool.js';
import { createLspDefinitionTool, createLspHoverTool, createLspReferencesTool } from './lsp-navigation-tools.js';
import type { LspService } from './lsp-service.js';
import { createLspSymbolsTool } from './lsp-symbols-tool.js';

/** The five lsp tools over one service: deferred, risk `read`, concurrency-safe. */
export function createLspTools(service: LspService): AnyToolDefinition[] {
  return [
    createLspDiagnosticsTool(service),
    createLspDefinitionTool(service),
    createLspReferencesTool(service),
    createLspHoverTool(service),
    createLspSymbolsTool(service),
  ];
}
