#!/usr/bin/env node
// The root test command: lint, typecheck and every package's tests through Nx, then one closing
// line `N passed, N failed` counted from each project's vitest JSON report. Exits non-zero on any
// failed task, any failed test, or when no test ran at all.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { TASK_PROFILE } from './task-profile.mjs';

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
/** The installed Nx's command-line script (what `npx nx` runs), from its package manifest. */
function nxCommandLine() {
  const manifest = createRequire(join(root, 'package.json')).resolve('nx/package.json');
  return join(dirname(manifest), JSON.parse(readFileSync(manifest, 'utf8')).bin.nx);
}

const targets = process.env.CLAWSMITH_TEST_TARGETS ?? 'lint,typecheck,test';
// Formatting is checked here, once for the whole repository: package lint targets run ESLint only.
const format = targets.includes('lint')
  ? spawnSync('npx', ['prettier', '--check', '--log-level=warn', '.'], { cwd: root, env, stdio: 'inherit' })
  : { status: 0 };
// Nx runs with the longest chains of tasks started first (critical-path-first.mjs): the long
// test tasks at the top of the graph no longer wait for every small task below them.
const nx = spawnSync(
  process.execPath,
  [
    '--import',
    join(import.meta.dirname, 'critical-path-first.mjs'),
    nxCommandLine(),
    'run-many',
    '-t',
    targets,
    '--outputStyle=static',
    '--parallel=2',
    ...process.argv.slice(2),
  ],
  { cwd: root, env, stdio: 'inherit' },
);

let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
for (const folder of projectFolders) {
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
if (format.status !== 0) console.log('Some files are not formatted: run `npm run format`.');
if (nx.status !== 0) console.log(`Nx reported failed tasks (exit ${nx.status ?? nx.signal}); see the output above.`);
console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
const ok = format.status === 0 && nx.status === 0 && failed === 0 && passed > 0 && missing.length === 0;
process.exit(ok ? 0 : 1);
