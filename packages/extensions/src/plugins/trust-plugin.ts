import { existsSync, realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { EXTENSIONS_ERROR_CODES, ExtensionsError } from '../extensions-error.js';
import { pluginFolder, readPluginConfiguration, writePluginConfiguration, type PluginEntry } from './plugin-config.js';
import { pluginIntegrity } from './plugin-integrity.js';
import { readPluginManifest } from './plugin-manifest.js';
import { resolvePluginModule } from './plugin-module-path.js';

/** What {@link trustPlugin} needs. */
export interface TrustPluginOptions {
  readonly homeDir: string;
  /** A configured plugin's name, a local folder, or an npm package installed in `<home>/plugins/node_modules`. */
  readonly target: string;
  /** Tool names to expose without `search_tools`; default: keep what the entry had. */
  readonly alwaysLoaded?: readonly string[];
}

/** The entry written and what it covers. */
export interface TrustedPlugin {
  readonly name: string;
  readonly folder: string;
  readonly entry: PluginEntry;
  /** The tool modules the manifest declares (relative paths). */
  readonly modules: readonly string[];
}

function entryFor(homeDir: string, target: string, configured: Readonly<Record<string, PluginEntry>>): PluginEntry {
  const existing = configured[target];
  if (existing) return existing;
  const asPath = resolve(target);
  if (existsSync(asPath) && statSync(asPath).isDirectory()) return { path: realpathSync(asPath) };
  const asPackage = { package: target };
  if (pluginFolder(homeDir, asPackage) !== undefined) return asPackage;
  throw new ExtensionsError(
    EXTENSIONS_ERROR_CODES.pluginNotFound,
    `No plugin ${JSON.stringify(target.slice(0, 200))}: it is not a configured plugin, not a folder, and not a package in <home>/plugins/node_modules (install one with npm install --prefix <home>/plugins <package>).`,
  );
}

/**
 * Records that the person trusts a plugin's files as they are now: reads its manifest, checks
 * that every tool module is inside its folder, and writes its integrity hash to `plugins.json`.
 * Runs none of the plugin's code.
 */
export function trustPlugin(options: TrustPluginOptions): TrustedPlugin {
  const configuration = readPluginConfiguration(options.homeDir);
  const entry = entryFor(options.homeDir, options.target, configuration.plugins);
  const folder = pluginFolder(options.homeDir, entry);
  if (folder === undefined)
    throw new ExtensionsError(
      EXTENSIONS_ERROR_CODES.pluginNotFound,
      `Plugin ${options.target}'s folder does not exist any more; fix or remove its entry in plugins.json.`,
    );
  const manifest = readPluginManifest(folder);
  for (const module of manifest.tools) resolvePluginModule(folder, manifest.name, module);
  const { integrity: _previous, alwaysLoaded: previousAlways, ...location } = entry;
  const alwaysLoaded = options.alwaysLoaded ?? previousAlways;
  const trusted: PluginEntry = {
    ...location,
    integrity: pluginIntegrity(folder),
    ...(alwaysLoaded && alwaysLoaded.length > 0 ? { alwaysLoaded: [...alwaysLoaded] } : {}),
  };
  const plugins = { ...configuration.plugins };
  // Trusting by folder under a name that changed: the old entry for the same folder goes.
  for (const [name, other] of Object.entries(plugins))
    if (name !== manifest.name && other.path !== undefined && other.path === trusted.path) delete plugins[name];
  plugins[manifest.name] = trusted;
  writePluginConfiguration(options.homeDir, { version: 1, plugins });
  return { name: manifest.name, folder, entry: trusted, modules: manifest.tools };
}

/** Forgets trust in a plugin (its entry stays, without integrity); returns whether it was trusted. */
export function untrustPlugin(options: { readonly homeDir: string; readonly name: string }): boolean {
  const configuration = readPluginConfiguration(options.homeDir);
  const entry = configuration.plugins[options.name];
  if (!entry)
    throw new ExtensionsError(
      EXTENSIONS_ERROR_CODES.pluginNotFound,
      `No plugin named ${JSON.stringify(options.name.slice(0, 200))} in plugins.json; clawsmith plugins list shows them.`,
    );
  if (entry.integrity === undefined) return false;
  const { integrity: _removed, ...rest } = entry;
  writePluginConfiguration(options.homeDir, {
    version: 1,
    plugins: { ...configuration.plugins, [options.name]: rest },
  });
  return true;
}
