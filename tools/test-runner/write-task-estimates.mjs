#!/usr/bin/env node
// Writes task-estimates.json, the seconds each Nx task took in the last `npm test` (its Nx
// profile), which critical-path-first.mjs uses to start the longest chains of tasks first. Run it
// after a full `npm test` on the machine CI uses when the suite's shape has changed (a new
// package, a test file that became much slower or faster): `npm run test:estimates`. Only the
// relative sizes matter, and a task missing from the file counts as a short one.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readTaskProfile, TASK_PROFILE } from './task-profile.mjs';

const root = resolve(import.meta.dirname, '../..');
const tasks = readTaskProfile(root);
if (tasks.length === 0) {
  console.error(`No Nx profile at ${TASK_PROFILE}: run \`npm test\` first, then this again.`);
  process.exit(1);
}
const seconds = Object.fromEntries(
  tasks
    .map((task) => [`${task.project}:${task.target}`, Math.max(1, Math.round(task.ms / 1000))])
    .sort(([left], [right]) => left.localeCompare(right)),
);
const path = join(import.meta.dirname, 'task-estimates.json');
writeFileSync(path, `${JSON.stringify({ seconds }, null, 2)}\n`);
console.log(`Wrote ${Object.keys(seconds).length} task estimates to ${path}.`);
