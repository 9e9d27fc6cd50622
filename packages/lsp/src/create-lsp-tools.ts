import type { ToolDefinition } from '@clawsmith/tool-protocol';
import { createLspDiagnosticsTool } from './lsp-diagnostics-tool.js';
import { createLspDefinitionTool, createLspHoverTool, createLspReferencesTool } from './lsp-navigation-tools.js';
import type { LspService } from './lsp-service.js';
import { createLspSymbolsTool } from './lsp-symbols-tool.js';

/**
 * One lsp tool: `execute` resolves to the answer's text (a success) and throws an `LspError` (a
 * `ClawsmithError`) for every refusal. Input is `any` because the five tools take different inputs;
 * parse it with the tool's `inputSchema` first.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of tools with different inputs
export type LspTool = ToolDefinition<any, string>;

/** The five tools, in the order {@link createLspTools} returns them. */
export type LspTools = [
  diagnostics: LspTool,
  definition: LspTool,
  references: LspTool,
  hover: LspTool,
  symbols: LspTool,
];

/** The five lsp tools over one service: deferred, risk `read`, concurrency-safe. */
export function createLspTools(service: LspService): LspTools {
  return [
    withToolingNote(service, createLspDiagnosticsTool(service)),
    withToolingNote(service, createLspDefinitionTool(service)),
    withToolingNote(service, createLspReferencesTool(service)),
    withToolingNote(service, createLspHoverTool(service)),
    withToolingNote(service, createLspSymbolsTool(service)),
  ];
}

/** Every answer ends with why the workspace's own settings or code were not used, when they were not. */
function withToolingNote(service: LspService, tool: LspTool): LspTool {
  return {
    ...tool,
    async execute(input, context) {
      const answer = await tool.execute(input, context);
      const note = service.toolingNote(context);
      return note === undefined ? answer : `${answer}\n${note}`;
    },
  };
}
