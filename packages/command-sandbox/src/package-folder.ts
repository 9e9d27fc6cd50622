import { createRequire } from 'node:module';
import { dirname } from 'node:path';

let folder: string | undefined;

/**
 * This package's installed folder, found from its own name: the same answer from `src/`, from
 * `dist/`, and from an application that bundled this code into files elsewhere (the `clawsmith`
 * executable), where a path relative to the running module would miss the package's files and
 * its declared dependencies.
 */
export function commandSandboxFolder(): string {
  folder ??= dirname(createRequire(import.meta.url).resolve('@clawsmith/command-sandbox/package.json'));
  return folder;
}

/** `require` resolving from this package's folder: its declared dependencies, wherever this code runs. */
export function commandSandboxRequire(): NodeJS.Require {
  return createRequire(`${commandSandboxFolder()}/package.json`);
}
