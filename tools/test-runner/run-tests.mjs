#!/usr/bin/env node
// The root test command: lint, typecheck and every package's tests through Nx, then one closing
// line `N passed, N failed` counted from each project's vitest JSON report. Exits non-zero on any
// failed task, any failed test, or when no test ran at all.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { commandLineOf } from './installed-command.mjs';
import { TASK_PROFILE } from './task-profile.mjs';
import { writeTypecheckSolution } from './typecheck-solution.mjs';

const root = resolve(import.meta.dirname, '../..');
const projectFolders = ['packages', 'tools']
  .flatMap((group) => {
    const folder = join(root, group);
    return existsSync(folder) ? readdirSync(folder).map((name) => join(folder, name)) : [];
  })
  .filter((folder) => existsSync(join(folder, 'package.json')));

// Stale reports must not be counted: Nx restores the real ones from its cache on a cache hit.
for (const folder of projectFolders) rmSync(join(folder, 'test-results'), { recursive: true, force: true });
rmSync(join(root, TASK_PROFILE), { force: true });

const env = {
  ...process.env,
  NX_DAEMON: 'false',
  NX_NO_CLOUD: 'true',
  NX_SOCKET_DIR: join(root, '.nx/sockets'),
  NX_NATIVE_FILE_CACHE_DIRECTORY: join(root, '.nx/native-cache'),
  // Every task's start and duration (build, lint, typecheck, test) for timing-report.mjs; Nx
  // resolves the path from the workspace root.
  NX_PROFILE: TASK_PROFILE,
};
const nxCommandLine = () => commandLineOf(root, 'nx', 'nx');
// TypeScript 7, the native compiler (tools/test-runner's own dependency): about a third of the
// processor time of TypeScript 5's `tsc -b` over the repository, on both processors. The root's
// TypeScript 5 stays what the packages' scripts, editors, Nx's graph and ESLint use.
const tscCommandLine = () => commandLineOf(join(root, 'tools/test-runner'), 'typescript', 'tsc');

// Which steps run (all by default); `CLAWSMITH_TEST_TARGETS=lint,typecheck` runs only the checks.
const targets = (process.env.CLAWSMITH_TEST_TARGETS ?? 'lint,typecheck,test').split(',');
const testing = targets.includes('test');
const nxArguments = process.argv.slice(2);
// The whole repository is linted by one ESLint process rather than one per project: each process
// pays about two seconds of processor time to load the configuration and its plugins, more than
// most packages' own linting, and the import-circle rule reads each file once per process. Every
// build and typecheck runs in one `tsc -b` the same way (typecheck-solution.mjs). A run narrowed
// to some projects (`npm test -- -p …`) keeps Nx's per-project lint and typecheck.
const wholeRepository = nxArguments.length === 0;
const lintHere = targets.includes('lint') && wholeRepository;
const typecheckHere = targets.includes('typecheck') && wholeRepository;
const nxTargets = targets.filter(
  (target) => !(target === 'lint' && lintHere) && !(target === 'typecheck' && typecheckHere),
);

/**
 * Runs a step's command (from the repository root unless `cwd` says) to its end, output shown,
 * and prints how long it took; resolves with its exit status.
 */
function runStep(name, command, args, cwd = root) {
  const start = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: 'inherit' });
    child.on('error', (error) => {
      console.error(`Could not start ${command}: ${error.message}`);
      resolve(1);
    });
    child.on('close', (code, signal) => {
      console.log(`${name}: ${((performance.now() - start) / 1000).toFixed(1)} s`);
      resolve(code ?? signal);
    });
  });
}

// Projects whose `build` makes more than TypeScript's output, in a `bundle` script of their own
// (the cli's executable, the web page): what their tests run.
const bundlingFolders = projectFolders.filter(
  (folder) => JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).scripts?.bundle !== undefined,
);
// A whole-repository run that tests builds everything here, before Nx: the one TypeScript build
// below, then each `bundle` script. Nx then runs only the test tasks, without their `build`
// dependencies: a package's own `build` script (`tsc -b` with TypeScript 5) would not take
// TypeScript 7's build information as up to date and would compile the package again.
const buildHere = typecheckHere && testing;

/** The one TypeScript build of every project (builds first, as their references order them). */
function typecheckEverything() {
  let solution;
  try {
    solution = writeTypecheckSolution(root);
  } catch (error) {
    console.error(error.message);
    return 1;
  }
  return runStep('TypeScript 7 (every build and typecheck)', process.execPath, [tscCommandLine(), '-b', solution]);
}

/** Every project's `bundle` script, side by side; resolves with the first failure's status, or 0. */
async function bundleEverything() {
  const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
  const statuses = await Promise.all(
    bundlingFolders.map((folder) =>
      runStep(`bundle (${basename(folder)})`, npm[0], [...npm.slice(1), 'run', '--silent', 'bundle'], folder),
    ),
  );
  return statuses.find((status) => status !== 0) ?? 0;
}

// Formatting is checked here, once for the whole repository (package lint targets run ESLint
// only); the repository's ESLint and TypeScript build (then the bundles) run beside it.
const [formatStatus, lintStatus, [typecheckStatus, bundleStatus]] = await Promise.all([
  targets.includes('lint')
    ? runStep('format check', process.execPath, [
        commandLineOf(root, 'prettier', 'prettier'),
        '--check',
        '--log-level=warn',
        '.',
      ])
    : 0,
  lintHere ? runStep('ESLint', process.execPath, [join(import.meta.dirname, 'lint.mjs')]) : 0,
  typecheckHere
    ? typecheckEverything().then(async (status) => [status, buildHere ? await bundleEverything() : 0])
    : [0, 0],
]);
// Nx runs with the longest chains of tasks started first (critical-path-first.mjs): the long
// test tasks at the top of the graph no longer wait for every small task below them. One task
// more than there are processors: a test task often waits (for a child process, a browser, a
// lease), and with one task per processor a seventh of the processors' time went idle.
const taskLanes = Number(process.env.CLAWSMITH_TEST_PARALLEL ?? availableParallelism() + 1);
const nx =
  nxTargets.length === 0
    ? { status: 0 }
    : spawnSync(
        process.execPath,
        [
          '--import',
          join(import.meta.dirname, 'critical-path-first.mjs'),
          nxCommandLine(),
          'run-many',
          '-t',
          nxTargets.join(','),
          '--outputStyle=static',
          `--parallel=${taskLanes}`,
          ...(buildHere ? ['--excludeTaskDependencies'] : []),
          ...nxArguments,
        ],
        { cwd: root, env, stdio: 'inherit' },
      );

let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
for (const folder of testing ? projectFolders : []) {
  const report = join(folder, 'test-results/vitest.json');
  if (!existsSync(report)) {
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    if (manifest.scripts?.test) missing.push(manifest.name);
    continue;
  }
  const result = JSON.parse(readFileSync(report, 'utf8'));
  passed += result.numPassedTests ?? 0;
  failed += result.numFailedTests ?? 0;
  skipped += (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0);
}

if (missing.length > 0)
  console.log(`No test report from: ${missing.join(', ')} (the task failed before or while testing).`);
if (formatStatus !== 0) console.log('Some files are not formatted: run `npm run format`.');
if (lintStatus !== 0) console.log(`ESLint reported problems (exit ${lintStatus}); see the output above.`);
if (typecheckStatus !== 0) console.log(`TypeScript reported errors (exit ${typecheckStatus}); see the output above.`);
if (bundleStatus !== 0) console.log(`A bundle script failed (exit ${bundleStatus}); see the output above.`);
if (nx.status !== 0) console.log(`Nx reported failed tasks (exit ${nx.status ?? nx.signal}); see the output above.`);
if (testing) console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
const ok =
  formatStatus === 0 &&
  lintStatus === 0 &&
  typecheckStatus === 0 &&
  bundleStatus === 0 &&
  nx.status === 0 &&
  failed === 0 &&
  (passed > 0 || !testing) &&
  missing.length === 0;
if (!testing) console.log(ok ? `${targets.join(', ')}: no problems` : `${targets.join(', ')}: problems found`);
process.exit(ok ? 0 : 1);
