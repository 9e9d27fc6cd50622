// Type-checks TypeScript projects in one process, as `tsc -b` builds them (TypeScript's solution
// builder), and prints each project's errors as JSON, keyed by the tsconfig path it was given
// (errors of no project, if any, under `unattributed`): the declaration files the projects share
// are read and parsed once, not once per `tsc -p`.
// Usage (from the projects' folder): node type-check-projects.mjs <typescript folder> <tsconfig>...
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const [typescriptFolder, ...projects] = process.argv.slice(2);
const ts = createRequire(import.meta.url)(resolve(typescriptFolder));
const errors = new Map(projects.map((project) => [resolve(project), []]));
const unattributed = [];
const format = {
  getCanonicalFileName: (fileName) => fileName,
  getCurrentDirectory: () => process.cwd(),
  getNewLine: () => '\n',
};
let building;
const host = ts.createSolutionBuilderHost(ts.sys, undefined, (diagnostic) => {
  // A project's own tsconfig errors are reported before it is built: they name its file.
  const configFile = diagnostic.file && resolve(diagnostic.file.fileName);
  const found = errors.get(errors.has(configFile) ? configFile : building) ?? unattributed;
  found.push(ts.formatDiagnostic(diagnostic, format).trim());
});
const builder = ts.createSolutionBuilder(host, projects, {});
for (let next = builder.getNextInvalidatedProject(); next; next = builder.getNextInvalidatedProject()) {
  building = resolve(next.project);
  next.done();
}
const result = Object.fromEntries(projects.map((project) => [project, errors.get(resolve(project))]));
if (unattributed.length > 0) result.unattributed = unattributed;
process.stdout.write(`${JSON.stringify(result)}\n`);
