// The relative imports of the files of a package that remain in the compiled code, read with
// TypeScript's import scanner and parser (no type information), so a cycle check can walk a whole
// package for the cost of reading its files once per ESLint process.
import { readFileSync, statSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import ts from 'typescript';

/** Files whose imports are followed; anything else (JSON, CSS) is a leaf. */
const CODE_EXTENSIONS = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs']);
/** What a NodeNext import's written extension stands for in the sources (`./a.js` is `./a.ts`). */
/** @type {Record<string, string[]>} */
const SOURCE_FOR_OUTPUT = { '.js': ['.ts', '.tsx'], '.jsx': ['.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'] };

/**
 * @typedef {object} RelativeImport
 * @property {string} specifier what the file wrote, for example `./session-store.js`
 * @property {string} target the file it resolves to
 * @property {number} start offset of the specifier's text in the file
 * @property {number} end offset just past it
 */

/** @type {Map<string, { version: string, imports: RelativeImport[] }>} */
const scanned = new Map();

/** @param {string} path */
function isFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The file a relative specifier names, as TypeScript resolves it under NodeNext (`./a.js` to
 * `./a.ts`) or Bundler (`./a` to `./a.ts` or `./a/index.ts`); `undefined` when none exists.
 * @param {string} importer the importing file
 * @param {string} specifier a specifier starting with `./` or `../`
 * @returns {string | undefined}
 */
export function resolveRelative(importer, specifier) {
  const base = resolve(dirname(importer), specifier.replace(/[?#].*$/, ''));
  const written = extname(base);
  const candidates = [
    ...(SOURCE_FOR_OUTPUT[written] ?? []).map((extension) => base.slice(0, -written.length) + extension),
    base,
    ...['.ts', '.tsx', '/index.ts', '/index.tsx', '.js', '/index.js'].map((suffix) => base + suffix),
  ];
  return candidates.find(isFile);
}

/**
 * Where the specifiers of the type-only imports and re-exports of a file start: `import type`,
 * `export type … from`, and those whose every named binding is marked `type` (compiled away, so
 * they make no circle at run time, as `import-x/no-cycle` had it).
 * @param {string} file
 * @param {string} text
 * @returns {Set<number>}
 */
function typeOnlySpecifierStarts(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  /** @type {Set<number>} */
  const starts = new Set();
  /** @param {ts.NamedImportBindings | ts.NamedExportBindings | undefined} bindings */
  const everyBindingIsType = (bindings) =>
    bindings !== undefined &&
    (ts.isNamedImports(bindings) || ts.isNamedExports(bindings)) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly);
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause && (clause.isTypeOnly || (!clause.name && everyBindingIsType(clause.namedBindings))))
        starts.add(statement.moduleSpecifier.getStart(source));
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier) {
      if (statement.isTypeOnly || everyBindingIsType(statement.exportClause))
        starts.add(statement.moduleSpecifier.getStart(source));
    }
  }
  return starts;
}

/**
 * The relative imports of one file's text that stay in the compiled code: static imports and
 * re-exports of values, `import()` and `require()`; type-only imports and package imports are
 * left out.
 * @param {string} file the file's path, to resolve its specifiers
 * @param {string} text its contents
 * @returns {RelativeImport[]}
 */
export function relativeImports(file, text) {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  const relative = importedFiles.filter(
    (reference) => reference.fileName.startsWith('./') || reference.fileName.startsWith('../'),
  );
  // Parsing costs more than scanning: only files with relative imports are parsed.
  const typeOnly = relative.length > 0 ? typeOnlySpecifierStarts(file, text) : new Set();
  /** @type {RelativeImport[]} */
  const imports = [];
  for (const reference of relative) {
    if (typeOnly.has(reference.pos)) continue;
    const specifier = reference.fileName;
    const target = resolveRelative(file, specifier);
    if (target !== undefined) imports.push({ specifier, target, start: reference.pos, end: reference.end });
  }
  return imports;
}

/**
 * The relative imports of a file on disk, cached for the life of the process and read again when
 * the file's modification time or size changes (an editor's long-running ESLint sees edits).
 * @param {string} file
 * @returns {RelativeImport[]}
 */
export function importsOf(file) {
  if (!CODE_EXTENSIONS.has(extname(file))) return [];
  let version;
  try {
    const stats = statSync(file);
    version = `${stats.mtimeMs}:${stats.size}`;
  } catch {
    return [];
  }
  const cached = scanned.get(file);
  if (cached?.version === version) return cached.imports;
  const imports = relativeImports(file, readFileSync(file, 'utf8'));
  scanned.set(file, { version, imports });
  return imports;
}

/**
 * A chain of imports from `start` back to `goal` (both included), or `undefined` when `start`
 * does not reach `goal`. `unreaching` holds files already known not to reach `goal`; it is
 * filled as the search goes, so one set serves every import of the same file.
 * @param {string} start
 * @param {string} goal
 * @param {Set<string>} unreaching
 * @returns {string[] | undefined}
 */
export function chainBack(start, goal, unreaching) {
  /** @type {Map<string, string>} */
  const cameFrom = new Map();
  const pending = [start];
  const seen = new Set([start]);
  while (pending.length > 0) {
    const file = /** @type {string} */ (pending.pop());
    if (file === goal) {
      const chain = [file];
      for (let step = cameFrom.get(file); step !== undefined; step = cameFrom.get(step)) chain.unshift(step);
      return chain;
    }
    for (const { target } of importsOf(file)) {
      if (seen.has(target) || unreaching.has(target)) continue;
      seen.add(target);
      cameFrom.set(target, file);
      pending.push(target);
    }
  }
  // Nothing reachable from start reaches goal.
  for (const file of seen) unreaching.add(file);
  return undefined;
}
