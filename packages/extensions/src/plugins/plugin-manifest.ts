import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXTENSIONS_ERROR_CODES, ExtensionsError } from '../extensions-error.js';

/** The manifest file a local plugin folder may have instead of a `clawsmith` field in `package.json`. */
export const PLUGIN_MANIFEST_FILE = 'clawsmith-plugin.json';
/** At most this many tool modules per plugin. */
export const MAX_PLUGIN_MODULES = 32;

/** What a plugin declares: its name, the manifest file, and its tool modules (relative paths). */
export interface PluginManifest {
  readonly name: string;
  /** `clawsmith-plugin.json` or `package.json`. */
  readonly manifestFile: string;
  /** Tool module paths as written, relative to the plugin's folder. */
  readonly tools: readonly string[];
}

const PLUGIN_NAME = /^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;

function invalid(folder: string, why: string): ExtensionsError {
  return new ExtensionsError(
    EXTENSIONS_ERROR_CODES.pluginInvalid,
    `The plugin in ${folder} ${why}. A plugin declares its tool modules in ${PLUGIN_MANIFEST_FILE} ({ "name": "my-plugin", "tools": ["./tools.js"] }) or in package.json ("clawsmith": { "tools": ["./dist/tools.js"] }).`,
  );
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Reads a plugin's manifest: `clawsmith-plugin.json` if present, else `package.json`'s `clawsmith` field. */
export function readPluginManifest(folder: string): PluginManifest {
  let own: unknown;
  let packageJson: unknown;
  try {
    own = readJson(join(folder, PLUGIN_MANIFEST_FILE));
    packageJson = readJson(join(folder, 'package.json'));
  } catch (error) {
    throw invalid(folder, `has a manifest that is not valid JSON (${(error as Error).message})`);
  }
  const record = (value: unknown) =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  const fromPackage = record(record(packageJson)?.clawsmith);
  const manifest = own !== undefined ? record(own) : fromPackage;
  if (manifest === undefined)
    throw invalid(
      folder,
      own !== undefined ? `has a ${PLUGIN_MANIFEST_FILE} that is not an object` : 'has no manifest',
    );
  const manifestFile = own !== undefined ? PLUGIN_MANIFEST_FILE : 'package.json';
  const name = own !== undefined ? manifest.name : record(packageJson)?.name;
  if (typeof name !== 'string' || name.length > 214 || !PLUGIN_NAME.test(name))
    throw invalid(folder, `has no valid name in ${manifestFile} (lowercase, npm-style)`);
  const tools = manifest.tools;
  if (!Array.isArray(tools) || tools.length === 0 || tools.some((entry) => typeof entry !== 'string' || entry === ''))
    throw invalid(folder, `declares no tool modules ("tools": a non-empty list of paths) in ${manifestFile}`);
  if (tools.length > MAX_PLUGIN_MODULES) throw invalid(folder, `declares more than ${MAX_PLUGIN_MODULES} tool modules`);
  return { name, manifestFile, tools: tools as string[] };
}
