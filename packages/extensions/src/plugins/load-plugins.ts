import { pathToFileURL } from 'node:url';
import type { AnyToolDefinition } from '@clawsmith/tool-protocol';
import { ClawsmithError } from '@clawsmith/tool-protocol';
import { EXTENSIONS_ERROR_CODES } from '../extensions-error.js';
import { pluginFolder, readPluginConfiguration, type PluginEntry } from './plugin-config.js';
import { pluginIntegrity } from './plugin-integrity.js';
import { readPluginManifest } from './plugin-manifest.js';
import { resolvePluginModule } from './plugin-module-path.js';
import { pluginTool } from './plugin-tool.js';

/**
 * Where a configured plugin stands: `loaded`; `untrusted` (listed without an integrity hash);
 * `changed` (its files differ from what was trusted); `missing` (the folder or package is not
 * there); `invalid` (bad manifest, a module outside its folder); `failed` (its module threw while
 * loading or exported no usable tool).
 */
export type PluginState = 'loaded' | 'untrusted' | 'changed' | 'missing' | 'invalid' | 'failed';

/** One configured plugin as this session sees it. */
export interface PluginStatus {
  readonly name: string;
  readonly state: PluginState;
  /** The real folder, when found. */
  readonly folder?: string;
  readonly entry: PluginEntry;
  /** The tool names it offers (only when loaded). */
  readonly tools: readonly string[];
  /** Why it is not loaded, with its code. */
  readonly problem?: { readonly code: string; readonly message: string };
}

/** A group of plugin tools for `AgentCoreOptions.extensions`: one source per plugin, so a duplicate names both. */
export interface PluginToolSource {
  /** `plugin:<name> (<folder>)`. */
  readonly source: string;
  readonly tools: readonly AnyToolDefinition[];
}

/** The plugins of one session. */
export interface LoadedPlugins {
  readonly sources: readonly PluginToolSource[];
  readonly plugins: readonly PluginStatus[];
}

/** What {@link loadPlugins} needs. */
export interface LoadPluginsOptions {
  readonly homeDir: string;
  /** Told about every plugin that is not loaded, and why. */
  readonly onNotice?: (notice: string) => void;
}

function problemOf(error: unknown): { code: string; message: string } {
  if (ClawsmithError.isInstance(error)) return { code: error.code, message: error.message };
  return { code: EXTENSIONS_ERROR_CODES.pluginLoadFailed, message: String((error as Error)?.message ?? error) };
}

function exportedTools(module: Record<string, unknown>): unknown[] | undefined {
  const candidate = module.tools ?? module.default;
  return Array.isArray(candidate) ? candidate : undefined;
}

interface LoadOutcome {
  readonly status: PluginStatus;
  readonly tools?: readonly AnyToolDefinition[];
}

async function loadOne(homeDir: string, name: string, entry: PluginEntry): Promise<PluginStatus | LoadOutcome> {
  const base = { name, entry, tools: [] as string[] };
  const folder = pluginFolder(homeDir, entry);
  if (folder === undefined)
    return {
      ...base,
      state: 'missing',
      problem: {
        code: EXTENSIONS_ERROR_CODES.pluginNotFound,
        message: `Plugin ${name}: ${entry.path !== undefined ? `the folder ${entry.path}` : `the package ${String(entry.package)} (in <home>/plugins/node_modules)`} does not exist.`,
      },
    };
  let modules: string[];
  try {
    const manifest = readPluginManifest(folder);
    if (manifest.name !== name)
      return {
        ...base,
        folder,
        state: 'invalid',
        problem: {
          code: EXTENSIONS_ERROR_CODES.pluginInvalid,
          message: `Plugin ${name} in plugins.json points at ${folder}, whose manifest names ${manifest.name}; trust it again: clawsmith plugins trust ${folder}`,
        },
      };
    modules = manifest.tools.map((requested) => resolvePluginModule(folder, name, requested));
    if (entry.integrity === undefined)
      return {
        ...base,
        folder,
        state: 'untrusted',
        problem: {
          code: EXTENSIONS_ERROR_CODES.pluginUntrusted,
          message: `Plugin ${name} is listed but not trusted; review ${folder} and run: clawsmith plugins trust ${name}`,
        },
      };
    if (pluginIntegrity(folder) !== entry.integrity)
      return {
        ...base,
        folder,
        state: 'changed',
        problem: {
          code: EXTENSIONS_ERROR_CODES.pluginChanged,
          message: `Plugin ${name} changed since it was trusted (${folder}); it is not loaded. Review the change and run: clawsmith plugins trust ${name}`,
        },
      };
  } catch (error) {
    return { ...base, folder, state: 'invalid', problem: problemOf(error) };
  }
  const always = new Set(entry.alwaysLoaded ?? []);
  const tools: AnyToolDefinition[] = [];
  for (const module of modules) {
    let loaded: Record<string, unknown>;
    try {
      // Only now, after the hash matched, does any of the plugin's code run.
      loaded = (await import(pathToFileURL(module).href)) as Record<string, unknown>;
    } catch (error) {
      return {
        ...base,
        folder,
        state: 'failed',
        problem: {
          code: EXTENSIONS_ERROR_CODES.pluginLoadFailed,
          message: `Plugin ${name}: loading ${module} threw: ${String((error as Error)?.message ?? error).slice(0, 500)}. The plugin is skipped.`,
        },
      };
    }
    const exported = exportedTools(loaded);
    const problems: string[] = [];
    if (exported === undefined) problems.push(`${module} exports no "tools" list (or default list)`);
    for (const candidate of exported ?? []) {
      const name = (candidate as { name?: unknown } | null)?.name;
      const tool = pluginTool(candidate, typeof name === 'string' && always.has(name));
      if (typeof tool === 'string') problems.push(tool);
      else tools.push(tool);
    }
    if (problems.length > 0)
      return {
        ...base,
        folder,
        state: 'failed',
        problem: {
          code: EXTENSIONS_ERROR_CODES.pluginLoadFailed,
          message: `Plugin ${name} is skipped: ${problems.join('; ')}.`,
        },
      };
  }
  return { status: { ...base, folder, state: 'loaded', tools: tools.map((tool) => tool.name) }, tools };
}

/**
 * Loads the plugins the home's `plugins.json` lists. A plugin's code runs (its tool modules are
 * imported) only when the integrity hash of its files equals the one recorded when the person
 * trusted it; anything else is reported (`onNotice`, and in `plugins`) and skipped, as is a plugin
 * whose module throws while loading. Tools keep their declared risk and capabilities for core's
 * floors and are deferred unless listed in the entry's `alwaysLoaded`.
 */
export async function loadPlugins(options: LoadPluginsOptions): Promise<LoadedPlugins> {
  const configuration = readPluginConfiguration(options.homeDir);
  const plugins: PluginStatus[] = [];
  const sources: PluginToolSource[] = [];
  for (const [name, entry] of Object.entries(configuration.plugins)) {
    const outcome = await loadOne(options.homeDir, name, entry);
    const status = 'status' in outcome ? outcome.status : outcome;
    plugins.push(status);
    if ('status' in outcome && outcome.tools)
      sources.push({ source: `plugin:${name} (${status.folder})`, tools: outcome.tools });
    if (status.problem) options.onNotice?.(status.problem.message);
  }
  return { sources, plugins };
}
