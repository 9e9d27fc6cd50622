import { readdirSync, readFileSync } from 'node:fs';

/** How often {@link waitForProcessGroupEnd} looks again. */
const POLL_MS = 10;

/**
 * Whether any process of group `groupId` still runs. On Linux it reads `/proc`, where a process
 * that has ended but was not yet reaped (a zombie: no memory, no open files) does not count: in a
 * container whose first process never reaps, a killed grandchild stays a zombie for good, and
 * `kill(-group, 0)` would call the group alive forever. Elsewhere it asks with signal 0.
 */
export function processGroupAlive(groupId: number): boolean {
  if (process.platform !== 'linux') return signalReaches(groupId);
  for (const entry of readdirSync('/proc')) {
    if (entry.charCodeAt(0) > 57) continue; // only the numbered folders are processes
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue; // ended while we looked
    }
    // "pid (command) state ppid pgrp ...": the command may hold spaces and parentheses.
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ', 3);
    if (Number(group) === groupId && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}

function signalReaches(groupId: number): boolean {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Resolves once no process of group `groupId` runs, or after `timeoutMs` (whichever is first):
 * a SIGKILL is only delivered, not done, when `kill` returns, and the killed processes may still
 * hold their files and memory for a while on a loaded machine.
 */
export async function waitForProcessGroupEnd(groupId: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!processGroupAlive(groupId)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
