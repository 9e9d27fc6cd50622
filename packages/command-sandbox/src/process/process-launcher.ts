import type { ProcessLaunch } from './process-runner.js';

// bash, not dash: dash cannot name descriptors above 9 (eval rather than `{fd}>&-`, which bash 3 lacks). The loop closes every descriptor above 2
// that the clawsmith process inherited (`exec 100>>/outside/log; clawsmith run …`): Node marks its
// own descriptors close-on-exec, inherited ones pass to every child unless closed here, before the
// sandbox starts, so no command can write through them.
const CLOSE_DESCRIPTORS_THEN_EXEC =
  'for fd in /dev/fd/*; do fd=${fd##*/}; case $fd in *[!0-9]*) ;; [012]) ;; *) eval "exec $fd>&-" ;; esac; done\n' +
  'if [ -n "$1" ]; then echo $$ > "$1" || exit 125; fi\n' +
  'if [ -n "$2" ]; then echo $$ > "$2" || exit 125; fi\n' +
  'if [ -n "$3" ]; then exec 3<"$3" || exit 125; fi\nshift 3\nexec "$@"';

/**
 * The program and arguments that start `launch` with only descriptors 0-2 open (and 3, the
 * seccomp filter, when the launch names one), after joining the pids cgroup whose
 * `cgroup.procs` file is `cgroupProcessesFile` and the memory cgroup whose file is
 * `memoryProcessesFile` (each when there is one). Throws for a launch that must start in a
 * prepared network namespace (see {@link ProcessLaunch.namespace}).
 */
export function launcherCommand(
  launch: Pick<ProcessLaunch, 'file' | 'args' | 'seccompFilterFile' | 'namespace'>,
  cgroupProcessesFile?: string,
  memoryProcessesFile?: string,
): { file: string; args: string[] } {
  // Its plan makes no network namespace: started from here it would have the host's network.
  if (launch.namespace)
    throw new Error('a launch in a prepared network namespace starts only in that namespace, not through the launcher');
  return {
    file: '/bin/bash',
    args: [
      '--noprofile',
      '--norc',
      '-c',
      CLOSE_DESCRIPTORS_THEN_EXEC,
      'clawsmith-launch',
      cgroupProcessesFile ?? '',
      memoryProcessesFile ?? '',
      launch.seccompFilterFile ?? '',
      launch.file,
      ...launch.args,
    ],
  };
}
