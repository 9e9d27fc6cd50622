import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { EXTENSIONS_ERROR_CODES, ExtensionsError } from '../extensions-error.js';

/** Limits of the files an integrity hash covers (its own `node_modules` included). */
export const PLUGIN_INTEGRITY_LIMITS = Object.freeze({ files: 20_000, bytes: 256 * 1024 * 1024 });

const SKIPPED = new Set(['.git']);

function unreadable(path: string, error: unknown): ExtensionsError {
  return new ExtensionsError(
    EXTENSIONS_ERROR_CODES.pluginInvalid,
    `The plugin file ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
  );
}

/**
 * The integrity of a plugin: `sha256-<hex>` over every file of its folder, its `node_modules`
 * included (path, then the SHA-256 of its bytes), sorted by path, except `.git`. A symbolic link
 * counts as what it resolves to (its target's path inside the folder, and for a file its bytes),
 * and must stay inside the plugin's real folder: a link that leads out (or into `.git`) is
 * refused (`plugin_module_outside`), because what it points at could change after trust without
 * changing the folder. So any change to what the plugin can load from its folder changes the hash.
 */
export function pluginIntegrity(folder: string): string {
  let realFolder: string;
  try {
    realFolder = realpathSync(folder);
  } catch (error) {
    throw unreadable(folder, error);
  }
  const entries: string[] = [];
  let bytes = 0;
  const count = () => {
    if (entries.length >= PLUGIN_INTEGRITY_LIMITS.files)
      throw new ExtensionsError(
        EXTENSIONS_ERROR_CODES.pluginInvalid,
        `The plugin folder ${folder} holds more than ${PLUGIN_INTEGRITY_LIMITS.files} files; publish it with fewer files.`,
      );
  };
  const digest = (absolute: string) => {
    let content: Buffer;
    try {
      content = readFileSync(absolute);
    } catch (error) {
      throw unreadable(absolute, error);
    }
    bytes += content.length;
    if (bytes > PLUGIN_INTEGRITY_LIMITS.bytes)
      throw new ExtensionsError(
        EXTENSIONS_ERROR_CODES.pluginInvalid,
        `The plugin folder ${folder} holds more than ${PLUGIN_INTEGRITY_LIMITS.bytes / 1024 / 1024} MiB.`,
      );
    return createHash('sha256').update(content).digest('hex');
  };
  const link = (path: string, absolute: string) => {
    let target: string;
    try {
      target = realpathSync(absolute);
    } catch (error) {
      throw new ExtensionsError(
        EXTENSIONS_ERROR_CODES.pluginInvalid,
        `The plugin file ${path} is a link that leads nowhere (${(error as NodeJS.ErrnoException).code ?? 'error'}) in ${folder}; remove it or point it at a file inside the plugin.`,
      );
    }
    const inside = relative(realFolder, target);
    const segments = inside.split(sep);
    if (inside === '' || segments[0] === '..' || segments.some((segment) => SKIPPED.has(segment)) || inside === target)
      throw new ExtensionsError(
        EXTENSIONS_ERROR_CODES.pluginModuleOutside,
        `The plugin file ${path} in ${folder} is a link to ${target}, outside the plugin's folder; what it points at could change after trust. Copy the file into the plugin instead of linking it.`,
      );
    const targetPath = segments.join('/');
    // A link to a folder inside: its files are hashed where they really are.
    if (statSync(target).isDirectory()) entries.push(`${path}\0link:${targetPath}/`);
    else entries.push(`${path}\0link:${targetPath}\0${digest(target)}`);
  };
  const walk = (directory: string, prefix: string) => {
    let listed: Dirent[];
    try {
      listed = readdirSync(directory, { withFileTypes: true });
    } catch (error) {
      throw unreadable(directory, error);
    }
    for (const entry of listed) {
      const path = `${prefix}${entry.name}`;
      const absolute = join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) walk(absolute, `${path}/`);
        continue;
      }
      count();
      if (entry.isSymbolicLink()) link(path, absolute);
      else if (entry.isFile()) entries.push(`${path}\0${digest(absolute)}`);
    }
  };
  walk(realFolder, '');
  entries.sort();
  return `sha256-${createHash('sha256').update(entries.join('\n')).digest('hex')}`;
}
