/* global require, process, console */
// Loads one package the two ways a consumer does, from the folder it runs in: import() as an ES
// module, then require() from CommonJS (Node 20.19+ loads ES modules through the exports map's
// `default` condition). Prints `name: import N exports, require N exports`. When a module is
// missing it names the package that imports it and what is missing, and exits 1.

const name = process.argv[2];

/** `@scope/name` or `name` of the last `node_modules` entry in a path or file URL. */
function packageOfPath(path) {
  const match = /.*node_modules[/\\]((?:@[^/\\]+[/\\])?[^/\\]+)/.exec(path);
  return match ? match[1].replace('\\', '/') : undefined;
}

function explain(way, error) {
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

async function main() {
  let imported;
  try {
    imported = await import(name);
  } catch (error) {
    console.log(explain('import()', error));
    process.exitCode = 1;
    return;
  }
  let required;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the point: CommonJS require()
    required = require(name);
  } catch (error) {
    console.log(explain('require()', error));
    process.exitCode = 1;
    return;
  }
  console.log(
    `${name}: import ${Object.keys(imported).length} exports, require ${Object.keys(required).length} exports`,
  );
}

void main();
