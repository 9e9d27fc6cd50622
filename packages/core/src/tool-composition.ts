import {
  composeRequestTools,
  createDeferredToolCatalog,
  createSearchToolsTool,
  type DeferredToolCatalog,
  type RequestTools,
  type SessionActivation,
} from '@clawsmith/deferred-tools';
import { buildToolTable, type ToolSource, type ToolTable } from '@clawsmith/tool-host';
import type { SessionActivations } from './session-activations.js';

/** A frozen tool table with its deferred catalog and cached request schemas. */
export interface ComposedTools {
  readonly table: ToolTable;
  readonly catalog: DeferredToolCatalog;
  requestTools(activation: SessionActivation): RequestTools;
}

/**
 * Builds one frozen tool table from `sources`, adding `search_tools` when any tool is deferred.
 * `search_tools` changes the activations the core's turns loaded, in place.
 */
export function composeTools(
  sources: readonly ToolSource[],
  alwaysLoaded: readonly string[],
  activations: Pick<SessionActivations, 'loaded'>,
): ComposedTools {
  const base = buildToolTable(sources);
  // One catalog serves search_tools and the gate: search_tools is never deferred, and the catalog
  // answers for it by name.
  const catalog = createDeferredToolCatalog(base.tools, { alwaysLoaded });
  let table = base;
  if (catalog.deferredTools.length > 0) {
    const search = createSearchToolsTool({ catalog, activationFor: (sessionId) => activations.loaded(sessionId) });
    table = buildToolTable([{ source: 'deferred-tools', tools: [search] }], base);
  }

  // The table is frozen, so the schemas sent depend only on the activation set; generating JSON
  // Schema from zod for every tool on every request would dominate an empty turn.
  const requestCache = new Map<string, RequestTools>();
  return {
    table,
    catalog,
    requestTools(activation: SessionActivation): RequestTools {
      const key = activation.activeTools().join('\u0000');
      let composed = requestCache.get(key);
      if (!composed) {
        if (requestCache.size >= 64) requestCache.clear();
        composed = composeRequestTools(table.tools, activation, catalog);
        requestCache.set(key, composed);
      }
      return composed;
    },
  };
}
