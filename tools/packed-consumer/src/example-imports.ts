import { existsSync } from 'node:fs';

const STATIC_IMPORT = /^\s*import\s[^;]*?\sfrom\s+'([^']+)'/gms;
/** A comment telling the reader what to install beside the package: `// ... npm install -E a@1.0.0 b@2.0.0`. */
const INSTALL_COMMENT = /^\s*\/\/.*\bnpm install -E ((?:\S+@\d\S*\s*)+)$/gm;

/** `zod` of `zod/v4`, `@scope/name` of `@scope/name/sub`. */
function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string);
}

/**
 * The packages a team copying this example would add to its own package.json: every package it
 * imports (`node:` built-ins and relative files aside) and every package a comment tells the
 * reader to install (`npm install -E name@version`).
 */
export function exampleImports(source: string): string[] {
  const names = new Set<string>();
  for (const [, specifier] of source.matchAll(STATIC_IMPORT))
    if (specifier && !specifier.startsWith('node:') && !specifier.startsWith('.')) names.add(packageNameOf(specifier));
  for (const [, list] of source.matchAll(INSTALL_COMMENT))
    for (const item of (list as string).trim().split(/\s+/)) names.add(item.slice(0, item.lastIndexOf('@')));
  return [...names];
}

/**
 * Whether an example stands up a server from this repository's private test utilities (mcp's local
 * OAuth server). No team can install those, so such an example is checked by its package's README
 * test only, and the packed-consumer check leaves it out.
 */
export function usesPrivateTestUtilities(source: string): boolean {
  return exampleImports(source).includes('@clawsmith/test-utils');
}

/**
 * Whether an example talks to a model: a model script (`<name>.model.json`) lies beside it and it
 * reads the server's URL from `OPENAI_BASE_URL` (the framework adapters' examples). The check
 * runs such an example from its package's own folder against a scripted server on 127.0.0.1, but
 * compiles it alone, without type information: type-checking it with its framework's
 * declarations (`skipLibCheck: false`) ran past the shared check's 180 s limit for `tsc` on a
 * two-core machine, and its package's own type-check already covers it.
 */
export function talksToModel(examplePath: string): boolean {
  return existsSync(examplePath.replace(/\.ts$/, '.model.json'));
}
