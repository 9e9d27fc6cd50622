/* global require, process, console */
// A CommonJS consumer: require() of each package named on the command line (Node 20.19+ loads
// their ES modules through the exports map's `default` condition). Prints `name: N exports`.
for (const name of process.argv.slice(2)) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the point: CommonJS require()
  const loaded = require(name);
  console.log(`${name}: ${Object.keys(loaded).length} exports`);
}
