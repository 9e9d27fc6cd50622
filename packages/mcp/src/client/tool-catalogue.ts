import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { canonicalSha256 } from '@clawsmith/tool-protocol';
import type { McpToolAnnotations } from './mcp-tool-risk.js';

/** What clawsmith keeps of one server tool: enough to offer it without starting the server. */
export interface CataloguedTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: Record<string, unknown>;
  /** The JSON Schema its `structuredContent` follows, when the server declares one. */
  readonly outputSchema?: Record<string, unknown>;
  readonly annotations?: McpToolAnnotations;
}

/** A server's tool list as last seen, keyed by the hash of the entry that produced it. */
export interface ToolCatalogue {
  readonly version: 1;
  readonly server: string;
  readonly listedAt: string;
  readonly tools: readonly CataloguedTool[];
  /** Whether the server announced the `resources` capability (then `read_resource` is offered). */
  readonly resources?: boolean;
}

/** Keeps only the fields clawsmith uses, from a `tools/list` answer. */
export function catalogueTools(listed: readonly Record<string, unknown>[]): CataloguedTool[] {
  return listed.map((tool) => {
    const annotations = (tool.annotations ?? undefined) as Record<string, unknown> | undefined;
    const hints: Record<string, boolean> = {};
    for (const key of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'])
      if (typeof annotations?.[key] === 'boolean') hints[key] = annotations[key] as boolean;
    const title = typeof tool.title === 'string' ? tool.title : (annotations?.title as string | undefined);
    return {
      name: String(tool.name),
      ...(typeof title === 'string' ? { title } : {}),
      ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
      inputSchema: (tool.inputSchema ?? { type: 'object' }) as Record<string, unknown>,
      ...(tool.outputSchema && typeof tool.outputSchema === 'object'
        ? { outputSchema: tool.outputSchema as Record<string, unknown> }
        : {}),
      ...(Object.keys(hints).length > 0 ? { annotations: hints } : {}),
    };
  });
}

/**
 * The tool lists of servers as last seen, in `<home>/mcp/catalogues/<entry sha256>.json`, so a
 * session can offer a server's tools as deferred tools without starting it. A changed entry has
 * another hash, so its tools are listed again.
 */
export class ToolCatalogueStore {
  readonly #folder: string;

  constructor(homeDir: string) {
    this.#folder = join(homeDir, 'mcp', 'catalogues');
  }

  #file(entrySha256: string): string {
    return join(this.#folder, `${entrySha256}.json`);
  }

  /** The stored catalogue, or undefined when there is none or it cannot be read. */
  read(entrySha256: string): ToolCatalogue | undefined {
    try {
      const value = JSON.parse(readFileSync(this.#file(entrySha256), 'utf8')) as ToolCatalogue;
      return value.version === 1 && Array.isArray(value.tools) ? value : undefined;
    } catch {
      return undefined;
    }
  }

  /** Stores a catalogue; returns whether it differs from the one stored before. */
  write(
    entrySha256: string,
    server: string,
    tools: readonly CataloguedTool[],
    options: { resources?: boolean } = {},
  ): boolean {
    const before = this.read(entrySha256);
    const resources = options.resources === true;
    if (before && canonicalSha256(before.tools) === canonicalSha256(tools) && (before.resources === true) === resources)
      return false;
    const file = this.#file(entrySha256);
    mkdirSync(dirname(file), { recursive: true });
    const catalogue: ToolCatalogue = {
      version: 1,
      server,
      listedAt: new Date().toISOString(),
      tools,
      ...(resources ? { resources } : {}),
    };
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(catalogue));
    renameSync(temporary, file);
    return true;
  }
}
