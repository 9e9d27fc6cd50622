// Loads packages the two ways a consumer does, each from the folder it is installed in: import()
// as an ES module, then require() from CommonJS (Node 20.19+ loads ES modules through the exports
// map's `default` condition).
//
// Run as `node load-package.mjs <folder> <name> [<folder> <name> ...]`, where each folder holds a
// copy of this file at `programs/load-package.mjs`: that copy does the loading, so each package
// resolves from its own folder's node_modules upwards, as it would in a process of its own. One
// process serves every folder: modules are cached by their real path, so what two folders share
// (the linked third-party packages) loads once, while an import a package does not declare still
// fails, because resolution starts from where the package lies. Prints
// `name: import N exports, require N exports` per package. When a module is missing it names the
// package that imports it and what is missing, and exits 1.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** `@scope/name` or `name` of the last `node_modules` entry in a path or file URL. */
function packageOfPath(path) {
  const match = /.*node_modules[/\\]((?:@[^/\\]+[/\\])?[^/\\]+)/.exec(path);
  return match ? match[1].replace('\\', '/') : undefined;
}

function explain(name, way, error) {
  if (error.code !== 'ERR_MODULE_NOT_FOUND' && error.code !== 'MODULE_NOT_FOUND') return `${way}: ${error.stack}`;
  const message = String(error.message);
  const missing = /Cannot find (?:package|module) '([^']+)'/.exec(message)?.[1] ?? '(unknown)';
  const importer =
    packageOfPath(/imported from (\S+)/.exec(message)?.[1] ?? '') ??
    packageOfPath(/Require stack:\n- (\S+)/.exec(message)?.[1] ?? '') ??
    name;
  return (
    `undeclared_dependency: ${importer} imports '${missing}', which is not installed beside it when ${name} is ` +
    `installed alone with what it declares (${way}). Add '${missing}' to ${importer}'s dependencies ` +
    `(or peerDependencies) in its package.json.\n${message}`
  );
}

/**
 * Loads `name` as resolved from this file's folder; returns the line to print and whether it loaded.
 * @param {string} name
 * @returns {Promise<{ line: string, loaded: boolean }>}
 */
export async function loadFromHere(name) {
  let imported;
  try {
    imported = await import(name);
  } catch (error) {
    return { line: explain(name, 'import()', error), loaded: false };
  }
  let required;
  try {
    required = createRequire(import.meta.url)(name);
  } catch (error) {
    return { line: explain(name, 'require()', error), loaded: false };
  }
  return {
    line: `${name}: import ${Object.keys(imported).length} exports, require ${Object.keys(required).length} exports`,
    loaded: true,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const pairs = process.argv.slice(2);
  for (let index = 0; index + 1 < pairs.length; index += 2) {
    const [folder, name] = [pairs[index], pairs[index + 1]];
    const here = await import(pathToFileURL(join(folder, 'programs/load-package.mjs')).href);
    const { line, loaded } = await here.loadFromHere(name);
    console.log(line);
    if (!loaded) process.exitCode = 1;
  }
}
