import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { EXTENSIONS_ERROR_CODES, ExtensionsError } from '../extensions-error.js';

/** One plugin the person listed in the home's `plugins.json`. */
export interface PluginEntry {
  /** A local folder (absolute), or … */
  readonly path?: string;
  /** … an npm package installed in `<home>/plugins/node_modules`. */
  readonly package?: string;
  /** `sha256-…` of the plugin's files when the person trusted it; absent: not trusted. */
  readonly integrity?: string;
  /** Tool names the model sees without `search_tools`; every other tool of the plugin is deferred. */
  readonly alwaysLoaded?: readonly string[];
}

/** The home's plugin configuration: plugin name → entry. */
export interface PluginConfiguration {
  readonly version: 1;
  readonly plugins: Readonly<Record<string, PluginEntry>>;
}

/** The file that lists the trusted plugins. */
export function pluginConfigurationFile(homeDir: string): string {
  return join(homeDir, 'plugins.json');
}

/** Where npm-package plugins are installed: `npm install --prefix <home>/plugins <package>`. */
export function pluginPackagesFolder(homeDir: string): string {
  return join(homeDir, 'plugins', 'node_modules');
}

/**
 * Reads `<home>/plugins.json`. Missing: no plugins. Unreadable or malformed: throws
 * `plugin_invalid` (nothing is loaded from a file the person cannot have meant).
 */
export function readPluginConfiguration(homeDir: string): PluginConfiguration {
  const file = pluginConfigurationFile(homeDir);
  if (!existsSync(file)) return { version: 1, plugins: {} };
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ExtensionsError(
      EXTENSIONS_ERROR_CODES.pluginInvalid,
      `${file} is not valid JSON (${(error as Error).message}); fix it or remove it. No plugin is loaded.`,
    );
  }
  const plugins = (value as { plugins?: unknown } | null)?.plugins;
  if (
    (value as { version?: unknown } | null)?.version !== 1 ||
    typeof plugins !== 'object' ||
    plugins === null ||
    Array.isArray(plugins)
  )
    throw new ExtensionsError(
      EXTENSIONS_ERROR_CODES.pluginInvalid,
      `${file} must be { "version": 1, "plugins": { "<name>": { "path": "…", "integrity": "sha256-…" } } }. No plugin is loaded.`,
    );
  return value as PluginConfiguration;
}

/** Writes the configuration atomically (a temporary file renamed over it), readable by the person only. */
export function writePluginConfiguration(homeDir: string, configuration: PluginConfiguration): void {
  const file = pluginConfigurationFile(homeDir);
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(configuration, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}

/** The real folder of an entry, or undefined when it does not exist. */
export function pluginFolder(homeDir: string, entry: PluginEntry): string | undefined {
  const folder =
    entry.path !== undefined
      ? resolve(entry.path)
      : entry.package !== undefined
        ? join(pluginPackagesFolder(homeDir), entry.package)
        : undefined;
  if (folder === undefined) return undefined;
  try {
    return statSync(folder).isDirectory() ? realpathSync(folder) : undefined;
  } catch {
    return undefined;
  }
}
