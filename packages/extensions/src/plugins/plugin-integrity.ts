import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { EXTENSIONS_ERROR_CODES, ExtensionsError } from '../extensions-error.js';

/** Limits of the files an integrity hash covers. */
export const PLUGIN_INTEGRITY_LIMITS = Object.freeze({ files: 5_000, bytes: 100 * 1024 * 1024 });

const SKIPPED = new Set(['node_modules', '.git']);

/**
 * The integrity of a plugin: `sha256-<hex>` over every file of its folder (path, then the SHA-256
 * of its bytes; a link by its target text), sorted by path, except `node_modules` and `.git`.
 * That covers the manifest, the tool modules and every file they import from the folder, so any
 * change to what would run changes the hash.
 */
export function pluginIntegrity(folder: string): string {
  const entries: string[] = [];
  let bytes = 0;
  const walk = (directory: string, prefix: string) => {
    let listed: Dirent[];
    try {
      listed = readdirSync(directory, { withFileTypes: true });
    } catch (error) {
      throw new ExtensionsError(
        EXTENSIONS_ERROR_CODES.pluginInvalid,
        `The plugin folder ${directory} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
      );
    }
    for (const entry of listed) {
      const path = `${prefix}${entry.name}`;
      const absolute = join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) walk(absolute, `${path}/`);
        continue;
      }
      if (entries.length >= PLUGIN_INTEGRITY_LIMITS.files)
        throw new ExtensionsError(
          EXTENSIONS_ERROR_CODES.pluginInvalid,
          `The plugin folder ${folder} holds more than ${PLUGIN_INTEGRITY_LIMITS.files} files outside node_modules; publish it with fewer files.`,
        );
      if (entry.isSymbolicLink()) {
        entries.push(`${path}\0link:${readlinkSync(absolute)}`);
      } else if (entry.isFile()) {
        const content = readFileSync(absolute);
        bytes += content.length;
        if (bytes > PLUGIN_INTEGRITY_LIMITS.bytes)
          throw new ExtensionsError(
            EXTENSIONS_ERROR_CODES.pluginInvalid,
            `The plugin folder ${folder} holds more than ${PLUGIN_INTEGRITY_LIMITS.bytes / 1024 / 1024} MiB outside node_modules.`,
          );
        entries.push(`${path}\0${createHash('sha256').update(content).digest('hex')}`);
      }
    }
  };
  walk(folder, '');
  entries.sort();
  return `sha256-${createHash('sha256').update(entries.join('\n')).digest('hex')}`;
}
