// CPU time of the child processes this process has waited for (user + system), read from Linux's
// /proc/self/stat: a benchmark of commands run as children reads it around each spawnSync. On a
// shared, loaded machine a child's CPU time varies far less than its wall time.
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's times (USER_HZ, 100 on Linux whatever the kernel's HZ). */
const TICKS_PER_SECOND = 100;

/**
 * User plus system CPU milliseconds of the waited-for children so far, or undefined where
 * /proc/self/stat is not there. Its resolution is one tick (10 ms): average many runs.
 */
export function waitedChildrenCpuMs(): number | undefined {
  let stat: string;
  try {
    stat = readFileSync('/proc/self/stat', 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the command name (in parentheses, which may hold spaces): state is field 3, so
  // cutime (16) and cstime (17) are the 14th and 15th after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[13]) + Number(fields[14]);
  return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : undefined;
}

/**
 * Prints the mean CPU milliseconds per run of each label (`totals`: summed over `runs` runs) with
 * its ratio to the first label's, as a table like {@link report}'s. Prints nothing without /proc.
 */
export function reportChildCpu(title: string, totals: ReadonlyMap<string, number>, runs: number): void {
  if (waitedChildrenCpuMs() === undefined) return;
  const means = [...totals].map(([label, total]) => [label, total / runs] as const);
  const [reference] = means;
  if (!reference) return;
  console.log(`\n## ${title}: CPU time of the child (user + system, mean per run)`);
  console.log(`| what | cpu ms | ratio to ${reference[0]} |`);
  console.log('|---|---:|---:|');
  for (const [label, mean] of means)
    console.log(`| ${label} | ${mean.toFixed(0)} | ${(mean / reference[1]).toFixed(2)}x |`);
}
