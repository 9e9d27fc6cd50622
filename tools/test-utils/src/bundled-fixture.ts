import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { build, type Plugin } from 'esbuild';

const bundles = new Map<string, Promise<string>>();

/**
 * The TypeScript fixture `fixture` and the workspace sources it imports (`@clawsmith/*` with the
 * source condition, and relative imports) bundled into one ES module, once per test process:
 * resolves with the bundle's path, to start as `node <path> ...args`.
 *
 * A process started with `--import tsx` compiles and resolves every source module through tsx's
 * loader on each start (about 3 s of CPU for core's graph); the bundle starts in a fifth of that,
 * running the same sources. Third-party packages stay outside the bundle, loaded by Node as
 * installed: the bundle is written under the fixture's package's `node_modules/.cache`, from
 * where Node resolves them as it would for the fixture itself, named by its content (the same
 * sources give the same file, however many processes and runs bundle them). A
 * fixture whose code finds files beside its own module (`import.meta.url`) must keep using tsx.
 */
export function bundledFixture(fixture: string): Promise<string> {
  let bundle = bundles.get(fixture);
  if (!bundle) {
    bundle = buildBundle(fixture);
    bundles.set(fixture, bundle);
  }
  return bundle;
}

async function buildBundle(fixture: string): Promise<string> {
  const result = await build({
    entryPoints: [fixture],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@clawsmith/source'],
    plugins: [thirdPartyStaysOutside],
    // Bundled CommonJS (none of ours, but a workspace source may import one) calls `require`.
    banner: {
      js: "import { createRequire as createRequireForBundle } from 'node:module';\nconst require = createRequireForBundle(import.meta.url);",
    },
    write: false,
    logLevel: 'silent',
  });
  const text = result.outputFiles[0]!.text;
  const folder = join(packageRoot(fixture), 'node_modules/.cache/clawsmith-fixtures');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const name = basename(fixture).replace(/\.tsx?$/, '');
  const path = join(folder, `${name}-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(path)) {
    // Written aside and renamed: a process starting the bundle never reads a half-written file.
    const partial = `${path}.${process.pid}.partial`;
    writeFileSync(partial, text, { mode: 0o600 });
    renameSync(partial, path);
  }
  return path;
}

const thirdPartyStaysOutside: Plugin = {
  name: 'third-party-stays-outside',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@clawsmith/') ? undefined : { path: args.path, external: true },
    );
  },
};

function packageRoot(fixture: string): string {
  let folder = dirname(fixture);
  while (!existsSync(join(folder, 'package.json'))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`${fixture} is in no package (no package.json above it).`);
    folder = parent;
  }
  return folder;
}
