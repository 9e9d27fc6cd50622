// Reads the Nx task profile that run-tests.mjs asks Nx to write (NX_PROFILE, a Chrome trace): one
// entry per task with its project, target, duration and status, so the timing report can show
// what build, lint and typecheck cost beside the tests.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where run-tests.mjs has Nx write the profile, relative to the repository root. */
export const TASK_PROFILE = '.nx/task-profile.json';

/**
 * The tasks of the last `npm test`, or an empty list when it wrote no profile.
 * @param {string} root the repository root
 * @returns {{ project: string, target: string, startMs: number, ms: number, status: string }[]}
 */
export function readTaskProfile(root) {
  const path = join(root, TASK_PROFILE);
  if (!existsSync(path)) return [];
  const trace = JSON.parse(readFileSync(path, 'utf8'));
  const events = Array.isArray(trace) ? trace : (trace.traceEvents ?? []);
  return events
    .filter((event) => event.ph === 'X' && event.args?.target)
    .map((event) => ({
      project: event.args.target.project,
      target: event.args.target.target,
      // Chrome traces count microseconds.
      startMs: event.ts / 1000,
      ms: event.dur / 1000,
      status: String(event.args.status ?? ''),
    }));
}
