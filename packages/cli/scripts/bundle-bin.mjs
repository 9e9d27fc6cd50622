#!/usr/bin/env node
// Build step of @clawsmith/cli (after tsc): bundles the `clawsmith` executable into dist/bin.js
// and lazily loaded chunks in dist/chunks/, so that a start loads a few files instead of some 750
// modules. The library entry (dist/index.js) stays the compiled modules.
import { chmodSync, existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { build } from 'esbuild';
import { rewriteWideCommentCharacters } from './one-byte-comments.mjs';

const require = createRequire(import.meta.url);
const packageFolder = (name) => dirname(require.resolve(`${name}/package.json`));

// Worker threads start from a module file: `threadModuleUrl(name, import.meta.url)` names
// `name.js` beside the running module. The bundle's code runs from dist/chunks/, so each thread
// program is bundled there as an entry of its own, under the name its starter asks for.
const THREAD_PROGRAMS = [
  { name: 'index-thread', source: join(packageFolder('@clawsmith/search-index'), 'dist/index-thread.js') },
  { name: 'index-thread-starter', source: join(packageFolder('@clawsmith/search-index'), 'dist/index-worker.js') },
  { name: 'regex-thread', source: join(packageFolder('@clawsmith/workspace-fs'), 'dist/regex-thread.js') },
  { name: 'regex-thread-starter', source: join(packageFolder('@clawsmith/workspace-fs'), 'dist/regex-worker.js') },
];

// Native modules, modules resolved by path at run time, and optional peers stay outside: the
// package declares each one it imports, so Node finds them from dist/ as from any module.
const EXTERNAL = ['better-sqlite3', '@lydell/node-pty', 'pg', 'pg-native', 'esbuild', 'canvas'];

// zod registers its English messages itself (`zod/v4/classic/schemas.js` imports `locales/en.js`);
// the other 40-odd locales are reachable only through the `z.locales` namespace, which nothing in
// the bundle reads, yet esbuild keeps them all because `z` is a namespace object: 366 KB that
// every command compiled. Inside the bundle `z.locales` (and `z.core.locales`) hold `en` only.
const ZOD_LOCALES_INDEX = /^\.\.\/locales\/index\.js$/;
const englishOnlyZodLocales = {
  name: 'english-only-zod-locales',
  setup(bundle) {
    bundle.onResolve({ filter: ZOD_LOCALES_INDEX }, ({ importer }) =>
      /[/\\]zod[/\\]v4[/\\](classic|core|mini)[/\\]/.test(importer)
        ? { path: join(dirname(importer), '..', 'locales', 'index.js'), namespace: 'zod-english-locales' }
        : undefined,
    );
    bundle.onLoad({ filter: /.*/, namespace: 'zod-english-locales' }, ({ path }) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(path), 'en.js'))};\n`,
      loader: 'js',
      resolveDir: dirname(path),
    }));
  },
};

const chunks = join('dist', 'chunks');
rmSync(chunks, { recursive: true, force: true });
rmSync(join('dist', 'bin.js.map'), { force: true });

const result = await build({
  entryPoints: {
    bin: 'src/bin.ts',
    ...Object.fromEntries(
      THREAD_PROGRAMS.filter(({ name }) => !name.endsWith('-starter')).map(({ name, source }) => [
        `chunks/${name}`,
        source,
      ]),
    ),
  },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  external: EXTERNAL,
  // CommonJS dependencies inside an ES module bundle call `require` for Node's built-in modules.
  banner: {
    js: "import { createRequire as __bundleCreateRequire } from 'node:module';\nconst require = __bundleCreateRequire(import.meta.url);",
  },
  plugins: [englishOnlyZodLocales],
  logLevel: 'warning',
  metafile: true,
});

// Check the layout the thread starters rely on: every output holding a starter sits in
// dist/chunks/, and each thread program's own module is the entry file of its name there.
for (const [output, { inputs }] of Object.entries(result.metafile.outputs)) {
  for (const { name, source } of THREAD_PROGRAMS) {
    const input = relative(process.cwd(), source);
    if (!(input in inputs)) continue;
    const expected = name.endsWith('-starter') ? dirname(output) === chunks : output === join(chunks, `${name}.js`);
    if (!expected) throw new Error(`bundle-bin: ${input} landed in ${output}; threads would not start from there`);
  }
}
for (const { name } of THREAD_PROGRAMS.filter(({ name }) => !name.endsWith('-starter')))
  if (!existsSync(join(chunks, `${name}.js`))) throw new Error(`bundle-bin: ${name}.js is missing from ${chunks}`);
for (const output of Object.keys(result.metafile.outputs))
  if (output.endsWith('.js')) rewriteWideCommentCharacters(output);
chmodSync(join('dist', 'bin.js'), 0o755);
