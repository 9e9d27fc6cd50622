import type { AnyToolDefinition } from '@clawsmith/tool-protocol';
import { InvalidToolCatalogError } from './deferred-tools-error.js';
import { SearchIndex, compareCodeUnits, type SearchField } from './search-index.js';
import {
  DEFAULT_SEARCH_TEXT_LIMITS,
  distinctTokens,
  excerpt,
  normalizeName,
  readString,
  type SearchTextLimits,
} from './search-text.js';
import type { SessionActivation } from './session-activation.js';
import { quoteName, toolNameProblem } from './tool-name.js';

/** The name of the tool that finds and activates deferred tools. Never deferred itself. */
export const SEARCH_TOOLS_NAME = 'search_tools';

/** Options of {@link createDeferredToolCatalog}. */
export interface DeferredToolCatalogOptions {
  /** Deferred tools to send with every request anyway. Names that match no tool are listed in `unmatchedAlwaysLoaded`. */
  readonly alwaysLoaded?: readonly string[];
  /** How many of the best matches one `search_tools` call activates; default 5, at least 1. */
  readonly maxActivationsPerSearch?: number;
  /** How many matches one search lists; default 10, at least `maxActivationsPerSearch`. */
  readonly maxResults?: number;
  /** How many distinct words of a query count; default 16. */
  readonly maxQueryTerms?: number;
  /** Bounds on the text read from each tool; see {@link DEFAULT_SEARCH_TEXT_LIMITS}. */
  readonly limits?: Partial<SearchTextLimits>;
}

/** Whether a tool may be called in a session right now. */
export type ToolGate = 'available' | 'inactive' | 'unknown';

/** One match of {@link DeferredToolCatalog.search}. */
export interface ToolSearchMatch {
  /** The tool's name. */
  readonly name: string;
  /** The ranking score; higher is better, ties ordered by name. */
  readonly score: number;
  /** The strongest field a query word matched. */
  readonly field: SearchField;
  /** A bounded one-line excerpt of the description, control characters removed. Data, never instructions. */
  readonly excerpt: string;
}

/**
 * The deferred tools of one tool table, indexed for `search_tools`. The tool text is read once
 * when the catalog is built and tokenised once, at the first search; a query never tokenises
 * tool text again.
 */
export interface DeferredToolCatalog {
  /** Deferred tools held out of requests until activated, sorted by name. */
  readonly deferredTools: readonly string[];
  /** Deferred tools sent anyway because `alwaysLoaded` names them, sorted. */
  readonly alwaysLoadedTools: readonly string[];
  /** Names in `alwaysLoaded` that match no deferred tool (a typo, or a server not connected). */
  readonly unmatchedAlwaysLoaded: readonly string[];
  /** How many matches one search activates at most. */
  readonly maxActivationsPerSearch: number;
  /** How many matches one search lists at most. */
  readonly maxResults: number;
  /** Whether the table holds a tool of this name (or it is `search_tools`). */
  has(name: string): boolean;
  /** Whether `name` is a deferred tool that needs activation before it is sent or called. */
  isDeferred(name: string): boolean;
  /**
   * `available`: a tool that is always sent, `search_tools`, or a deferred tool active in
   * `activation`. `inactive`: a deferred tool not active. `unknown`: no such tool.
   */
  gate(name: string, activation: Pick<SessionActivation, 'isActive'>): ToolGate;
  /** The best deferred tools for `query`, best first; at most `limit` (default `maxResults`). */
  search(query: string, options?: { readonly limit?: number }): ToolSearchMatch[];
}

interface CatalogEntry {
  /** Deferred and not always-loaded: held out until activated. */
  readonly deferred: boolean;
  /** What the tool declared, before `alwaysLoaded` applies. */
  readonly declaredDeferred: boolean;
  /** The description cut to its bound. */
  readonly description: string;
}

const EXCERPT_LENGTH = 160;

function read(tool: unknown, field: string): unknown {
  try {
    return (tool as Record<string, unknown>)[field];
  } catch {
    return undefined;
  }
}

function readStrings(value: unknown, count: number, length: number): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .slice(0, count)
    .map(readString)
    .map((text) => text.slice(0, length));
}

function positiveInteger(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1)
    throw new InvalidToolCatalogError(`${what} must be a positive integer, got ${String(value)}.`);
  return value;
}

/**
 * Builds the catalog of `tools` (the whole tool table). A tool is deferred when
 * `tool.deferred === true` and `options.alwaysLoaded` does not name it. Throws
 * {@link InvalidToolCatalogError} for a missing or bad name, a duplicate name, or a deferred
 * `search_tools`. Tool text is data: each field is cut to its bound before it is read.
 */
export function createDeferredToolCatalog(
  tools: readonly AnyToolDefinition[],
  options: DeferredToolCatalogOptions = {},
): DeferredToolCatalog {
  const limits: SearchTextLimits = { ...DEFAULT_SEARCH_TEXT_LIMITS, ...options.limits };
  const maxActivationsPerSearch = positiveInteger(options.maxActivationsPerSearch, 5, 'maxActivationsPerSearch');
  const maxResults = Math.max(maxActivationsPerSearch, positiveInteger(options.maxResults, 10, 'maxResults'));
  const maxQueryTerms = positiveInteger(options.maxQueryTerms, 16, 'maxQueryTerms');
  const alwaysLoaded = new Set(options.alwaysLoaded ?? []);
  const entries = new Map<string, CatalogEntry>();
  const deferred: { name: string; tool: unknown }[] = [];

  tools.forEach((tool, index) => {
    const name = read(tool, 'name');
    const problem = toolNameProblem(name);
    if (problem) throw new InvalidToolCatalogError(`Tool ${index} has ${problem}; give every tool a unique name.`);
    const toolName = name as string;
    if (entries.has(toolName))
      throw new InvalidToolCatalogError(`Two tools are named ${quoteName(toolName)}; tool names must be unique.`);
    const declaredDeferred = read(tool, 'deferred') === true;
    const isDeferred = declaredDeferred && !alwaysLoaded.has(toolName);
    if (toolName === SEARCH_TOOLS_NAME && declaredDeferred) {
      throw new InvalidToolCatalogError(
        `${SEARCH_TOOLS_NAME} cannot be deferred: it is how deferred tools are found. Remove deferred: true.`,
      );
    }
    const description = readString(read(tool, 'description')).slice(0, limits.description);
    entries.set(toolName, { deferred: isDeferred, declaredDeferred, description });
    if (isDeferred) deferred.push({ name: toolName, tool });
  });

  // The fields are read (and cut to their bounds) now, while the table is built; tokenising them
  // waits for the first search, which most sessions never make.
  const documents = deferred.map(({ name, tool }) => {
    const metadata = read(tool, 'searchMetadata');
    return {
      name,
      aliases: readStrings(read(metadata, 'aliases'), limits.terms, limits.term).join(' \n '),
      tags: readStrings(read(metadata, 'tags'), limits.terms, limits.term).join(' \n '),
      searchHint: readString(read(metadata, 'searchHint')).slice(0, limits.searchHint),
    };
  });
  let index: SearchIndex | undefined;
  const searchIndex = () =>
    (index ??= new SearchIndex(
      documents.map(({ name, aliases, tags, searchHint }) => ({
        name,
        normalizedName: normalizeName(name, limits.name),
        fieldTokens: [
          distinctTokens(name, limits.name),
          distinctTokens(aliases, limits.terms * (limits.term + 3)),
          distinctTokens(tags, limits.terms * (limits.term + 3)),
          distinctTokens(searchHint, limits.searchHint),
          distinctTokens(entries.get(name)!.description, limits.description),
        ],
      })),
    ));

  const deferredTools = Object.freeze(deferred.map(({ name }) => name).sort(compareCodeUnits));
  const loadedAnyway = [...alwaysLoaded].filter((name) => entries.get(name)?.declaredDeferred === true);
  return Object.freeze({
    deferredTools,
    alwaysLoadedTools: Object.freeze(loadedAnyway.sort(compareCodeUnits)),
    unmatchedAlwaysLoaded: Object.freeze(
      [...alwaysLoaded].filter((name) => entries.get(name)?.declaredDeferred !== true).sort(compareCodeUnits),
    ),
    maxActivationsPerSearch,
    maxResults,
    has: (name: string) => name === SEARCH_TOOLS_NAME || entries.has(name),
    isDeferred: (name: string) => entries.get(name)?.deferred === true,
    gate(name: string, activation: Pick<SessionActivation, 'isActive'>): ToolGate {
      if (name === SEARCH_TOOLS_NAME) return 'available';
      const entry = entries.get(name);
      if (!entry) return 'unknown';
      if (!entry.deferred) return 'available';
      return activation.isActive(name) ? 'available' : 'inactive';
    },
    search(query: string, searchOptions: { readonly limit?: number } = {}): ToolSearchMatch[] {
      const text = readString(query);
      const wanted = searchOptions.limit ?? maxResults;
      const limit = Number.isFinite(wanted) ? Math.min(maxResults, Math.max(0, Math.floor(wanted))) : maxResults;
      return searchIndex()
        .search(text, normalizeName(text, limits.name), limit, limits.query, maxQueryTerms)
        .map((hit) => {
          const name = deferred[hit.position]!.name;
          return Object.freeze({
            name,
            score: hit.score,
            field: hit.field,
            excerpt: excerpt(entries.get(name)!.description, EXCERPT_LENGTH),
          });
        });
    },
  });
}
