// Test support: a child program bundled once per test file, so each child starts as plain
// JavaScript. Started under tsx, every child compiled its imports through the loader again: 8-13 s
// per child at a load average of 24, two children at once, most of a crash test's time (past its
// limit when the machine was busier). Workspace packages are bundled from their TypeScript source;
// everything else (better-sqlite3's native module, pg, kysely) stays an import, resolved from the
// package's node_modules, where the bundle is written.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const packageRoot = fileURLToPath(new URL('../..', import.meta.url));

/** A bundled child program and how to remove it. */
export interface BundledChild {
  /** The bundle's path: run it with `node <path> ...`. */
  readonly path: string;
  /** Removes the bundle's folder. */
  remove(): void;
}

/** Bundles the TypeScript program at `source` (with the workspace's source condition). */
export async function bundleChild(source: string): Promise<BundledChild> {
  const cache = join(packageRoot, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const folder = mkdtempSync(join(cache, 'test-child-'));
  const path = join(folder, `${basename(source, '.ts')}.mjs`);
  await build({
    entryPoints: [source],
    outfile: path,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@clawsmith/source'],
    logLevel: 'error',
    plugins: [
      {
        name: 'packages-stay-imports',
        setup(bundler) {
          bundler.onResolve({ filter: /^[^./]/ }, (found) =>
            found.path.startsWith('@clawsmith/') ? undefined : { path: found.path, external: true },
          );
        },
      },
    ],
  });
  return { path, remove: () => rmSync(folder, { recursive: true, force: true }) };
}
