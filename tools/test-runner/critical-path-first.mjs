// Preloaded into the Nx process by run-tests.mjs (`node --import`): Nx starts the ready task
// with the most dependent tasks first, then the one of the project most depended on, so the
// longest test tasks (the apps at the top of the graph) start last and one core idles at the end
// of a run while the other finishes them. Here ready tasks are started longest remaining path
// first instead: a task's rank is its estimated time plus the largest rank among the tasks waiting
// for it (critical-path list scheduling), with the estimates in task-estimates.json (written by
// `npm run test:estimates` from the last run's Nx profile). Only the order changes: what runs,
// its dependencies and its cache stay Nx's. The scheduler is internal to Nx (pinned exactly in
// the root package.json): when its shape is not the one expected, this says so and leaves Nx's
// order alone.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

// Nx is CommonJS: the same module instance its command line loads.
const require = createRequire(join(import.meta.dirname, '../../package.json'));

/** Seconds assumed for a task the estimates do not know (a new package, a new target). */
const UNKNOWN_TASK_SECONDS = 10;

function readEstimates() {
  try {
    return JSON.parse(readFileSync(join(import.meta.dirname, 'task-estimates.json'), 'utf8')).seconds ?? {};
  } catch (error) {
    console.warn(
      `critical-path-first: no task estimates (${error.message}); every task counts ${UNKNOWN_TASK_SECONDS} s.`,
    );
    return {};
  }
}

function patch() {
  let TasksSchedule;
  try {
    ({ TasksSchedule } = require('nx/src/tasks-runner/tasks-schedule'));
  } catch (error) {
    console.warn(`critical-path-first: Nx's scheduler not found (${error.message}); Nx's own task order applies.`);
    return;
  }
  const prototype = TasksSchedule?.prototype;
  if (typeof prototype?.init !== 'function' || typeof prototype.sortScheduledTasks !== 'function') {
    console.warn("critical-path-first: Nx's scheduler has changed shape; Nx's own task order applies.");
    return;
  }
  const estimates = readEstimates();
  const originalInit = prototype.init;
  const originalSort = prototype.sortScheduledTasks;

  prototype.init = async function init(...args) {
    await originalInit.apply(this, args);
    const { tasks, dependencies } = this.taskGraph;
    const waitingFor = new Map(Object.keys(tasks).map((id) => [id, []]));
    for (const [id, needs] of Object.entries(dependencies)) for (const need of needs) waitingFor.get(need)?.push(id);
    const ranks = new Map();
    const rank = (id) => {
      if (ranks.has(id)) return ranks.get(id);
      const task = tasks[id];
      const own = estimates[`${task.target.project}:${task.target.target}`] ?? UNKNOWN_TASK_SECONDS;
      // The task graph is acyclic (Nx refuses a cycle before scheduling), so this recursion ends.
      const after = Math.max(0, ...waitingFor.get(id).map(rank));
      ranks.set(id, own + after);
      return own + after;
    };
    for (const id of Object.keys(tasks)) rank(id);
    this.criticalPathRanks = ranks;
    if (process.env.CLAWSMITH_SCHEDULE_LOG) {
      const longest = [...ranks].sort((left, right) => right[1] - left[1]).slice(0, 8);
      console.log(`critical-path-first: longest chains ${longest.map(([id, s]) => `${id} ${s} s`).join(', ')}`);
    }
  };

  prototype.sortScheduledTasks = function sortScheduledTasks() {
    const ranks = this.criticalPathRanks;
    if (!ranks) return originalSort.call(this);
    originalSort.call(this);
    // Array.prototype.sort is stable: equal ranks keep Nx's order.
    this.scheduledTasks.sort((left, right) => (ranks.get(right) ?? 0) - (ranks.get(left) ?? 0));
  };
}

patch();
