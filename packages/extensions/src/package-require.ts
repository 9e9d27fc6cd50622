import { createRequire } from 'node:module';

let required: NodeJS.Require | undefined;

/**
 * `require` resolving from this package's own folder (found from its name), so that the modules
 * loaded on demand (`yaml`, `better-sqlite3`) come from its declared dependencies also when an
 * application bundled this code into files elsewhere (the `clawsmith` executable).
 */
export function extensionsRequire(): NodeJS.Require {
  required ??= createRequire(createRequire(import.meta.url).resolve('@clawsmith/extensions/package.json'));
  return required;
}
