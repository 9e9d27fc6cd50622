import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

let root: string | undefined;

/**
 * The path of a file shipped in this package (`package.json`, `src/demo/demo-script.json`),
 * found from the package's own name rather than from this module's place: the `clawsmith`
 * executable is a bundle whose chunks sit at other depths than the compiled modules.
 */
export function cliPackageFile(relativePath: string): string {
  root ??= dirname(createRequire(import.meta.url).resolve('@clawsmith/cli/package.json'));
  return join(root, relativePath);
}
