import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

interface Bundler {
  buildSync(options: Record<string, unknown>): { outputFiles: { text: string }[] };
}

const bundled = new Map<string, URL>();
let bundleFolder: string | undefined;

/**
 * Where to start a worker thread whose program is the module `name` beside the caller (`base`
 * is the caller's `import.meta.url`).
 *
 * Compiled, that is `name.js` in `dist`. Run from the TypeScript source (this repository's tests
 * and benchmarks resolve packages to `src`), Node 20 cannot start a worker from a `.ts` file, so
 * the module and what it imports are bundled once per process into a private temporary folder
 * (esbuild, a development dependency that a compiled install never loads).
 */
export function threadModuleUrl(name: string, base: string): URL {
  if (!base.endsWith('.ts')) return new URL(`./${name}.js`, base);
  const source = fileURLToPath(new URL(`./${name}.ts`, base));
  const known = bundled.get(source);
  if (known) return known;
  const url = bundleForSourceRun(source, name);
  bundled.set(source, url);
  return url;
}

function bundleForSourceRun(source: string, name: string): URL {
  const esbuild = createRequire(import.meta.url)('esbuild') as Bundler;
  const [output] = esbuild.buildSync({
    entryPoints: [source],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  }).outputFiles;
  // A private folder (mode 0700, unpredictable name): a shared, guessable path in the temporary
  // directory would let another local user plant the code a worker runs.
  bundleFolder ??= createBundleFolder();
  const path = join(bundleFolder, `${name}.mjs`);
  writeFileSync(path, output!.text, { mode: 0o600 });
  return pathToFileURL(path);
}

function createBundleFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'clawsmith-threads-'));
  process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  return folder;
}
