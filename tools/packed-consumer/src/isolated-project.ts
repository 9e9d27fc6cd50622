import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
  const wanted = new Set((options.exampleSources ?? []).flatMap((file) => exampleImports(readFileSync(file, 'utf8'))));
  installPackages(exampleRoot, [...wanted], unpacked, repositoryRoot, new Set(installed.clawsmith));
  const examples: string[] = [];
  const compiled = options.compiledExamples;
  if (compiled && existsSync(compiled)) {
    cpSync(compiled, join(exampleRoot, 'dist'), { recursive: true });
    for (const file of readdirSync(compiled).filter((entry) => entry.endsWith('.js'))) examples.push(`dist/${file}`);
  }
  return { packageName, root, installed, exampleRoot, examples };
}
