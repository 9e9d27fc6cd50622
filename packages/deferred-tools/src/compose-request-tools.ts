import {
  boundText,
  canonicalSha256,
  stripControlSequences,
  toModelToolSchema,
  type AnyToolDefinition,
  type ModelToolSchema,
} from '@clawsmith/tool-protocol';
import type { DeferredToolCatalog } from './deferred-tool-catalog.js';
import { InvalidToolCatalogError } from './deferred-tools-error.js';
import { compareCodeUnits } from './search-index.js';
import type { SessionActivation } from './session-activation.js';
import { quoteName } from './tool-name.js';

/** Longest description of a deferred tool sent to the model; deferred tools come from outside. */
export const MAX_DEFERRED_DESCRIPTION_LENGTH = 8_000;

/** Which schemas one model request exposed. Core stores it with the request. */
export interface RequestToolsEvidence {
  /** The names of the tools sent, in the order sent. */
  readonly toolNames: readonly string[];
  /** SHA-256 (hex) of the canonical JSON of the exact schemas sent, in order. */
  readonly toolSchemaSha256: string;
  /** How the list was put together. */
  readonly composition: {
    /** Deferred tools sent because this session activated them, sorted. */
    readonly activatedTools: readonly string[];
    /** Deferred tools sent because they are always loaded, sorted (only with a catalog). */
    readonly alwaysLoadedTools: readonly string[];
    /** How many deferred tools were held back. */
    readonly heldBackCount: number;
  };
}

/** What {@link composeRequestTools} returns. */
export interface RequestTools {
  /** The schemas to send to the provider. */
  readonly tools: readonly ModelToolSchema[];
  /** The evidence of what was sent. */
  readonly evidence: RequestToolsEvidence;
}

// toJSONSchema is the costly part of a request's tool list; a frozen tool's schema never
// changes, so each is generated once per tool object.
const schemaCache = new WeakMap<AnyToolDefinition, ModelToolSchema>();

function exposedSchema(tool: AnyToolDefinition): ModelToolSchema {
  const cached = schemaCache.get(tool);
  if (cached) return cached;
  const description = tool.deferred === true ? boundedDescription(tool.description) : tool.description;
  const schema = toModelToolSchema({
    name: tool.name,
    description,
    inputSchema: tool.inputSchema,
    ...(tool.inputJsonSchema !== undefined ? { inputJsonSchema: tool.inputJsonSchema } : {}),
  });
  if (Object.isFrozen(tool)) schemaCache.set(tool, schema);
  return schema;
}

function boundedDescription(description: unknown): string {
  const text = typeof description === 'string' ? description : '';
  const head =
    text.length > MAX_DEFERRED_DESCRIPTION_LENGTH * 2 ? text.slice(0, MAX_DEFERRED_DESCRIPTION_LENGTH * 2) : text;
  return boundText(stripControlSequences(head), MAX_DEFERRED_DESCRIPTION_LENGTH);
}

/**
 * The tools to send with one model request and the evidence of what they were: every tool that
 * is not deferred (in table order), then the deferred tools active in `activation` (by name).
 * With `catalog`, deferredness follows it (always-loaded tools count as not deferred); without,
 * `tool.deferred === true`. Descriptions of deferred tools are stripped of control sequences
 * and cut to {@link MAX_DEFERRED_DESCRIPTION_LENGTH}. The hash covers exactly the schemas sent;
 * key order inside them does not change it. Throws {@link InvalidToolCatalogError} for two
 * tools of one name.
 */
export function composeRequestTools(
  table: readonly AnyToolDefinition[],
  activation: Pick<SessionActivation, 'isActive'>,
  catalog?: Pick<DeferredToolCatalog, 'isDeferred' | 'alwaysLoadedTools'>,
): RequestTools {
  const seen = new Set<string>();
  const base: AnyToolDefinition[] = [];
  const activated: AnyToolDefinition[] = [];
  let heldBackCount = 0;
  for (const tool of table) {
    if (seen.has(tool.name))
      throw new InvalidToolCatalogError(`Two tools are named ${quoteName(tool.name)}; tool names must be unique.`);
    seen.add(tool.name);
    const deferred = catalog
      ? catalog.isDeferred(tool.name) || (tool.deferred === true && !catalog.alwaysLoadedTools.includes(tool.name))
      : tool.deferred === true;
    if (!deferred) base.push(tool);
    else if (activation.isActive(tool.name)) activated.push(tool);
    else heldBackCount += 1;
  }
  activated.sort((left, right) => compareCodeUnits(left.name, right.name));
  const tools = [...base, ...activated].map(exposedSchema);
  const exposed = tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
  return Object.freeze({
    tools: Object.freeze(tools),
    evidence: Object.freeze({
      toolNames: Object.freeze(tools.map((tool) => tool.name)),
      toolSchemaSha256: canonicalSha256(exposed),
      composition: Object.freeze({
        activatedTools: Object.freeze(activated.map((tool) => tool.name)),
        alwaysLoadedTools: Object.freeze(
          base
            .filter((tool) => tool.deferred === true)
            .map((tool) => tool.name)
            .sort(compareCodeUnits),
        ),
        heldBackCount,
      }),
    }),
  });
}
