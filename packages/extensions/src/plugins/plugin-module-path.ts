import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, sep } from 'node:path';
import { EXTENSIONS_ERROR_CODES, ExtensionsError } from '../extensions-error.js';

/**
 * The real path of a tool module a manifest names, which must be a file inside the plugin's real
 * `folder`: absolute paths, `..` segments and links that lead out are refused
 * (`plugin_module_outside`) before anything is read or imported.
 */
export function resolvePluginModule(folder: string, pluginName: string, requested: string): string {
  const refuse = (why: string) =>
    new ExtensionsError(
      EXTENSIONS_ERROR_CODES.pluginModuleOutside,
      `Plugin ${pluginName} names the module ${JSON.stringify(requested.slice(0, 200))}, which ${why}; a plugin's modules must be files inside its folder. The plugin is not loaded.`,
    );
  if (requested.includes('\0')) throw refuse('contains a NUL character');
  if (isAbsolute(requested) || /^[A-Za-z]:/.test(requested)) throw refuse('is an absolute path');
  if (requested.split(/[\\/]/).includes('..')) throw refuse("contains '..'");
  let real: string;
  try {
    real = realpathSync(join(folder, requested));
  } catch {
    throw new ExtensionsError(
      EXTENSIONS_ERROR_CODES.pluginInvalid,
      `Plugin ${pluginName} names the module ${JSON.stringify(requested.slice(0, 200))}, which does not exist in ${folder}.`,
    );
  }
  if (!real.startsWith(folder + sep)) throw refuse('leads outside the plugin folder through a link');
  if (!statSync(real).isFile()) throw refuse('is not a file');
  return real;
}
