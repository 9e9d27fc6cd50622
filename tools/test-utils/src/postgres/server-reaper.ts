import { spawn } from 'node:child_process';
import { Socket } from 'node:net';

/**
 * Stops a test PostgreSQL server and removes its folder when the process that started it ends
 * without stopping it (a test runner killed, or exiting on a worker's time-out before its global
 * teardown ran), so that no server outlives its run.
 *
 * A detached shell holds the reading end of a pipe whose writing end only this process has (Node
 * opens pipes close-on-exec, so no child inherits it): when this process ends, however it ends,
 * the kernel closes that end, the shell reads end-of-file and runs `stopCommand`, then removes
 * `folder`. After a normal stop the folder is already gone and the shell's stop finds no server.
 */
export function reapServerWithOwner(options: {
  /** The server's folder (its data, log and socket), removed after the stop. */
  readonly folder: string;
  /** The program and arguments that stop the server immediately (`pg_ctl ... -m immediate stop`). */
  readonly stopCommand: readonly string[];
}): void {
  const reaper = spawn(
    'sh',
    ['-c', 'cat >/dev/null; "$@" >/dev/null 2>&1; rm -rf -- "$REAPED_FOLDER"', 'server-reaper', ...options.stopCommand],
    {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      env: { ...process.env, REAPED_FOLDER: options.folder, LC_ALL: 'C', LANG: 'C' },
    },
  );
  reaper.unref();
  // Neither the pipe nor the shell may keep this process alive.
  if (reaper.stdin instanceof Socket) reaper.stdin.unref();
}
