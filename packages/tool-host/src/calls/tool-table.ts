import {
  ClawsmithError,
  resolveToolSecurity,
  type AnyToolDefinition,
  type ResolvedToolSecurity,
} from '@clawsmith/tool-protocol';

/** A group of tools and where they came from, for error messages (`builtin`, `session`, `extension:mcp`). */
export interface ToolSource {
  readonly source: string;
  readonly tools: readonly AnyToolDefinition[];
}

/** A tool in the frozen table, with its resolved security profile and origin. */
export interface ToolEntry {
  readonly tool: AnyToolDefinition;
  readonly security: ResolvedToolSecurity;
  readonly source: string;
}

/** The tool table of one AgentCore: built once at construction, frozen, never extended. */
export interface ToolTable {
  get(name: string): ToolEntry | undefined;
  readonly names: readonly string[];
  readonly tools: readonly AnyToolDefinition[];
}

/** Thrown at construction when two tools share a name; names both sources. */
export class DuplicateToolError extends ClawsmithError {
  constructor(name: string, firstSource: string, secondSource: string) {
    super(
      'duplicate_tool',
      `Two tools are named ${JSON.stringify(name)}: one from ${firstSource} and one from ${secondSource}. Rename or leave out one of them; nothing is replaced silently.`,
    );
    this.name = 'DuplicateToolError';
  }
}

/**
 * Builds the frozen tool table; a duplicate name is a startup error that names both sources.
 * With `base`, the table holds base's entries (already resolved) followed by `sources`'.
 */
export function buildToolTable(sources: readonly ToolSource[], base?: ToolTable): ToolTable {
  const entries = new Map<string, ToolEntry>();
  for (const name of base?.names ?? []) entries.set(name, base!.get(name)!);
  for (const { source, tools } of sources) {
    for (const tool of tools) {
      if (typeof tool?.name !== 'string' || tool.name.length === 0) {
        throw new ClawsmithError(
          'invalid_tool',
          `A tool from ${source} has no name; every tool needs a unique non-empty name.`,
        );
      }
      const existing = entries.get(tool.name);
      if (existing) throw new DuplicateToolError(tool.name, existing.source, source);
      entries.set(tool.name, Object.freeze({ tool, security: resolveToolSecurity(tool), source }));
    }
  }
  const frozen = new Map(entries);
  const tools = Object.freeze([...frozen.values()].map((entry) => entry.tool));
  return Object.freeze({
    get: (name: string) => frozen.get(name),
    names: Object.freeze([...frozen.keys()]),
    tools,
  });
}
