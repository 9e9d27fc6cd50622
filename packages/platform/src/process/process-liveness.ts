/**
 * Whether a process with this pid exists now. A process of another user counts as alive
 * (`EPERM`: it exists, we may not signal it); a zombie counts too until its parent reaps it.
 * Not a pid (0, negative, fractional) is never alive: `kill(0, …)` would mean our own group.
 */
export function processIsAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
