// One TypeScript build over the whole repository, for `npm test`: every package's `build`
// (`tsconfig.build.json`, whose references follow the package's workspace dependencies) and every
// project's `typecheck` configurations, in one `tsc -b` process. One process parses the Node
// types, the SDKs' declarations and each package's built declarations once; one process per
// package parsed them again for each (the build and typecheck tasks cost about 290 s of
// processor time that way, one process about 60 s).
//
// The typecheck configurations are read from each project's `typecheck` script, so the script
// stays the one definition of what a project's typecheck is; this file writes, under
// `.nx/typecheck`, a configuration per `tsc -p <config> --noEmit --customConditions null` that
// extends it with the same options and references the builds it reads.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';

/** The shape every project's `typecheck` script has: commands of this form joined by `&&`. */
const TYPECHECK_COMMAND = /^tsc -p (\S+) --noEmit --customConditions null$/;

/** Where the generated configurations are written, relative to the repository root. */
export const SOLUTION_FOLDER = '.nx/typecheck';

/**
 * The workspace's projects: folders of `packages` and `tools` with a `package.json`.
 * @param {string} root
 */
function workspaceProjects(root) {
  /** @type {Map<string, { folder: string, manifest: any }>} */
  const projects = new Map();
  for (const group of ['packages', 'tools']) {
    const groupFolder = join(root, group);
    if (!existsSync(groupFolder)) continue;
    for (const name of readdirSync(groupFolder).sort()) {
      const folder = join(groupFolder, name);
      if (!existsSync(join(folder, 'package.json'))) continue;
      const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
      projects.set(manifest.name, { folder, manifest });
    }
  }
  return projects;
}

/**
 * Writes the solution (and a configuration per typecheck command) and returns the solution's
 * path. Throws, saying what to change, when a project's typecheck script has another shape.
 * @param {string} root the repository root
 * @returns {string}
 */
export function writeTypecheckSolution(root) {
  const projects = workspaceProjects(root);
  const folder = join(root, SOLUTION_FOLDER);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const references = [];
  for (const [name, project] of projects) {
    const script = project.manifest.scripts?.typecheck;
    if (script === undefined) continue;
    const builds = Object.keys({ ...project.manifest.dependencies, ...project.manifest.devDependencies })
      .map((dependency) => projects.get(dependency)?.folder)
      .filter((dependencyFolder) => dependencyFolder !== undefined)
      .map((dependencyFolder) => join(dependencyFolder, 'tsconfig.build.json'))
      .filter((config) => existsSync(config));
    for (const command of script.split('&&').map((part) => part.trim())) {
      const match = TYPECHECK_COMMAND.exec(command);
      if (match === null)
        throw new Error(
          `${name}'s typecheck script runs "${command}": npm test checks every project in one TypeScript build and ` +
            `understands only "tsc -p <config> --noEmit --customConditions null" (joined by &&). ` +
            `Write it in that shape, or change tools/test-runner/typecheck-solution.mjs.`,
        );
      const config = resolve(project.folder, match[1]);
      const own = JSON.parse(readFileSync(config, 'utf8')).references ?? [];
      const generated = join(
        folder,
        `${basename(project.folder)}--${relative(project.folder, config).replaceAll('/', '--')}`,
      );
      writeFileSync(
        generated,
        JSON.stringify({
          extends: config,
          compilerOptions: { customConditions: null, noEmit: true },
          references: [
            ...own.map((reference) => ({ path: resolve(dirname(config), reference.path) })),
            ...builds.map((path) => ({ path })),
          ],
        }),
      );
      references.push({ path: generated });
    }
  }
  const solution = join(folder, 'tsconfig.json');
  writeFileSync(solution, JSON.stringify({ files: [], references }));
  return solution;
}
