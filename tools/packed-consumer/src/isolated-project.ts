import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import ts from 'typescript';
import { exampleImports } from './example-imports.js';
import { installPackages, type InstalledPackages, type UnpackedPackages } from './install-packages.js';

/**
 * One published package installed on its own, outside the repository:
 *
 * ```text
 * <root>/node_modules/          the package, the clawsmith packages it declares (copies) and the
 *                               third-party packages they declare (links), nothing else
 * <root>/example/node_modules/  what the package's examples import besides (a team's own dependencies)
 * <root>/example/dist/          the package's examples, compiled once by the shared type-check
 *                               (those that talk to a model: compiled here, see modelExampleSources)
 * ```
 *
 * The package itself resolves its imports from `<root>/node_modules` upwards only, so an import
 * it does not declare fails even though an example's own dependencies sit one folder down.
 */
export interface IsolatedProject {
  readonly packageName: string;
  readonly root: string;
  /** What `<root>/node_modules` holds. */
  readonly installed: InstalledPackages;
  /** The folder the examples run from. */
  readonly exampleRoot: string;
  /** The compiled examples, relative to `exampleRoot`, for example `dist/agent-turn.js`. */
  readonly examples: readonly string[];
  /** The examples that talk to a model, relative to `exampleRoot` (`dist/fix-a-test.js`), with their sources (a model script beside each). */
  readonly modelExamples: readonly { readonly example: string; readonly source: string }[];
}

export interface IsolatedProjectOptions {
  readonly packageName: string;
  readonly root: string;
  readonly unpacked: UnpackedPackages;
  readonly repositoryRoot: string;
  /** The package's example sources (`.ts`), whose imports the example folder installs. */
  readonly exampleSources?: readonly string[];
  /** The folder holding the package's compiled examples (`.js`), if it has any. */
  readonly compiledExamples?: string;
  /**
   * Examples that talk to a model (a `<name>.model.json` beside each), compiled here one file at a
   * time without type information: the framework adapters' examples, which their package's own
   * type-check covers, and whose frameworks' declarations cost the shared check minutes.
   */
  readonly modelExampleSources?: readonly string[];
  /** Folders whose `node_modules` hold the third-party packages the examples import, first match wins; default the repository root. */
  readonly exampleLinkFrom?: readonly string[];
}

const moduleManifest = (name: string) =>
  `${JSON.stringify({ name, version: '0.0.0', private: true, type: 'module' }, null, 2)}\n`;

/** Creates the folder of one package installed alone (see {@link IsolatedProject}). */
export function createIsolatedProject(options: IsolatedProjectOptions): IsolatedProject {
  const { packageName, root, unpacked, repositoryRoot } = options;
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'package.json'), moduleManifest('isolated-consumer'));
  const installed = installPackages(root, [packageName], unpacked, repositoryRoot);

  const exampleRoot = join(root, 'example');
  mkdirSync(exampleRoot, { recursive: true });
  writeFileSync(join(exampleRoot, 'package.json'), moduleManifest('isolated-consumer-example'));
  const modelSources = options.modelExampleSources ?? [];
  const wanted = new Set(
    [...(options.exampleSources ?? []), ...modelSources].flatMap((file) => exampleImports(readFileSync(file, 'utf8'))),
  );
  installPackages(
    exampleRoot,
    [...wanted],
    unpacked,
    options.exampleLinkFrom ?? repositoryRoot,
    new Set(installed.clawsmith),
  );
  const examples: string[] = [];
  mkdirSync(join(exampleRoot, 'dist'), { recursive: true });
  const compiled = options.compiledExamples;
  if (compiled && existsSync(compiled)) {
    cpSync(compiled, join(exampleRoot, 'dist'), { recursive: true });
    for (const file of readdirSync(compiled).filter((entry) => entry.endsWith('.js'))) examples.push(`dist/${file}`);
  }
  const modelExamples = modelSources.map((source) => {
    const example = `dist/${basename(source, '.ts')}.js`;
    writeFileSync(join(exampleRoot, example), transpiled(source));
    return { example, source };
  });
  return { packageName, root, installed, exampleRoot, examples, modelExamples };
}

/** An example compiled to an ES module on its own, types erased and not checked. */
function transpiled(source: string): string {
  return ts.transpileModule(readFileSync(source, 'utf8'), {
    fileName: source,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    reportDiagnostics: false,
  }).outputText;
}
