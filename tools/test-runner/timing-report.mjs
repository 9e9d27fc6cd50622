#!/usr/bin/env node
// Where the test suite's time goes: reads every project's vitest JSON report (written by
// `npm test` or a package's own `test` script into <project>/test-results/vitest.json) and prints
// the time per package and the slowest files and tests, each with its share of the total.
//
// Usage: npm run test:timings -- [--top N] [--json]
// (node tools/test-runner/timing-report.mjs). After a root `npm test` it also prints every Nx
// task's time (build, lint, typecheck, test) from the profile run-tests.mjs has Nx write.
// Times are wall times from the reports (a file's start to its end, a package's first start to
// its last end), so they move with the machine's load: the load average is printed beside them,
// and shares compare better between runs than milliseconds do.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { readTaskProfile } from './task-profile.mjs';

const root = resolve(import.meta.dirname, '../..');
const args = process.argv.slice(2);
const topIndex = args.indexOf('--top');
const top = topIndex >= 0 ? Number(args[topIndex + 1]) : 10;

const packages = [];
for (const group of ['packages', 'tools']) {
  const folder = join(root, group);
  if (!existsSync(folder)) continue;
  for (const name of readdirSync(folder)) {
    const report = join(folder, name, 'test-results/vitest.json');
    if (!existsSync(report)) continue;
    const result = JSON.parse(readFileSync(report, 'utf8'));
    const files = (result.testResults ?? []).map((file) => ({
      file: relative(root, file.name),
      ms: Math.max(0, (file.endTime ?? 0) - (file.startTime ?? 0)),
      tests: file.assertionResults.length,
      slowest: file.assertionResults.map((test) => ({ test: test.fullName, ms: test.duration ?? 0 })),
    }));
    const starts = (result.testResults ?? []).map((file) => file.startTime).filter(Boolean);
    const ends = (result.testResults ?? []).map((file) => file.endTime).filter(Boolean);
    packages.push({
      name: JSON.parse(readFileSync(join(folder, name, 'package.json'), 'utf8')).name,
      wallMs: starts.length > 0 ? Math.max(...ends) - Math.min(...starts) : 0,
      fileMs: files.reduce((sum, file) => sum + file.ms, 0),
      tests: result.numTotalTests ?? 0,
      passed: result.numPassedTests ?? 0,
      failed: result.numFailedTests ?? 0,
      files,
    });
  }
}

const tasks = readTaskProfile(root);
if (packages.length === 0 && tasks.length === 0) {
  console.error('No vitest report found: run `npm test` (or a package`s `npm test`) first.');
  process.exit(1);
}

const allFiles = packages.flatMap((pkg) => pkg.files.map((file) => ({ ...file, package: pkg.name })));
const allTests = allFiles.flatMap((file) => file.slowest.map((test) => ({ ...test, file: file.file })));
const fileTotal = allFiles.reduce((sum, file) => sum + file.ms, 0);
const testTotal = allTests.reduce((sum, test) => sum + test.ms, 0);
const seconds = (ms) => (ms / 1000).toFixed(1);
const share = (part, whole) => `${whole > 0 ? ((100 * part) / whole).toFixed(1) : '0.0'} %`;

if (args.includes('--json')) {
  console.log(JSON.stringify({ loadAverage: loadavg(), tasks, packages, fileTotalMs: fileTotal }, null, 2));
  process.exit(0);
}

console.log(
  `# Test timing (load average now: ${loadavg()
    .map((load) => load.toFixed(1))
    .join(' ')})`,
);
console.log(
  `\n${packages.reduce((sum, pkg) => sum + pkg.tests, 0)} tests in ${allFiles.length} files; ` +
    `file time summed over all workers ${seconds(fileTotal)} s.`,
);
console.log('\n## per package (file time summed; wall = first file start to last file end)');
console.log('| package | tests | files | file time s | share | wall s |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const pkg of [...packages].sort((left, right) => right.fileMs - left.fileMs))
  console.log(
    `| ${pkg.name} | ${pkg.tests}${pkg.failed > 0 ? ` (${pkg.failed} failed)` : ''} | ${pkg.files.length} | ${seconds(pkg.fileMs)} | ${share(pkg.fileMs, fileTotal)} | ${seconds(pkg.wallMs)} |`,
  );
console.log(`\n## the ${top} slowest files`);
console.log('| file | tests | s | share |');
console.log('|---|---:|---:|---:|');
for (const file of [...allFiles].sort((left, right) => right.ms - left.ms).slice(0, top))
  console.log(`| ${file.file} | ${file.tests} | ${seconds(file.ms)} | ${share(file.ms, fileTotal)} |`);
console.log(`\n## the ${top} slowest tests (their own duration, without the file's set-up)`);
console.log('| test | file | s | share of test time |');
console.log('|---|---|---:|---:|');
for (const test of [...allTests].sort((left, right) => right.ms - left.ms).slice(0, top))
  console.log(`| ${test.test} | ${test.file} | ${seconds(test.ms)} | ${share(test.ms, testTotal)} |`);

if (tasks.length > 0) {
  const runStart = Math.min(...tasks.map((task) => task.startMs));
  const runEnd = Math.max(...tasks.map((task) => task.startMs + task.ms));
  const taskTotal = tasks.reduce((sum, task) => sum + task.ms, 0);
  console.log(
    `\n## Nx tasks of the last \`npm test\`: ${tasks.length} tasks, ${seconds(runEnd - runStart)} s from the first start to the last end, ${seconds(taskTotal)} s summed`,
  );
  console.log('| target | tasks | s summed | share |');
  console.log('|---|---:|---:|---:|');
  const byTarget = new Map();
  for (const task of tasks) {
    const entry = byTarget.get(task.target) ?? { tasks: 0, ms: 0 };
    byTarget.set(task.target, { tasks: entry.tasks + 1, ms: entry.ms + task.ms });
  }
  for (const [target, entry] of [...byTarget].sort((left, right) => right[1].ms - left[1].ms))
    console.log(`| ${target} | ${entry.tasks} | ${seconds(entry.ms)} | ${share(entry.ms, taskTotal)} |`);
  console.log(`\n## the ${top} slowest Nx tasks`);
  console.log('| task | status | s | share |');
  console.log('|---|---|---:|---:|');
  for (const task of [...tasks].sort((left, right) => right.ms - left.ms).slice(0, top))
    console.log(
      `| ${task.project}:${task.target} | ${task.status} | ${seconds(task.ms)} | ${share(task.ms, taskTotal)} |`,
    );
}
