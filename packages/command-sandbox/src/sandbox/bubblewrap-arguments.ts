import { BRIDGE_LOCALE, bridgedCommandArguments } from '../network/network-bridge.js';
import { limitedCommandArguments, type SandboxMount, type SandboxPlan } from './sandbox-plan.js';

/**
 * The descriptor bubblewrap reads the Unix socket filter from (`--seccomp 3`) when the plan
 * denies Unix sockets: whoever starts bubblewrap opens {@link unixSocketFilterProgram}'s bytes
 * there (the launcher does). Without it bubblewrap refuses to start: the wall fails closed.
 */
export const UNIX_SOCKET_FILTER_DESCRIPTOR = 3;

/**
 * The first argument of bubblewrap for a plan that shares a prepared network namespace (see
 * `SandboxPlan.preparedNetwork`): the waiting namespace removes it before bubblewrap starts, and
 * bubblewrap started any other way refuses it as an unknown option, so such a plan never runs
 * with the host's network.
 */
export const PREPARED_NETWORK_ONLY_ARGUMENT = '--clawsmith-prepared-network-namespace-only';

function mountArguments(mount: SandboxMount): string[] {
  const source = mount.source ?? mount.target;
  switch (mount.kind) {
    case 'read-only':
      return ['--ro-bind', source, mount.target];
    case 'read-write':
      return ['--bind', source, mount.target];
    case 'overlay':
      // The overlay itself is mounted by the setup step before bubblewrap starts (see
      // overlayLaunch); here the merged view at the target is bound like a plain workspace.
      return ['--bind', mount.target, mount.target];
    case 'tmpfs':
      return mount.sizeBytes === undefined
        ? ['--tmpfs', mount.target]
        : ['--size', String(mount.sizeBytes), '--tmpfs', mount.target];
    case 'read-only-empty':
      return ['--perms', '0555', '--tmpfs', mount.target, '--remount-ro', mount.target];
    case 'devices':
      return ['--dev', mount.target];
    case 'processes':
      return ['--proc', mount.target];
  }
}

/**
 * The bubblewrap command line for `plan` (without the `bwrap` program itself): for a plan in a
 * prepared network namespace {@link PREPARED_NETWORK_ONLY_ARGUMENT} first, then mounts in plan
 * order, namespaces, session, capabilities, the cleared environment with only the plan's
 * variables, the Unix socket filter's descriptor (see {@link UNIX_SOCKET_FILTER_DESCRIPTOR}), the
 * working folder, then the limited command.
 */
export function bubblewrapArguments(plan: SandboxPlan): string[] {
  const argv: string[] = plan.preparedNetwork ? [PREPARED_NETWORK_ONLY_ARGUMENT] : [];
  for (const mount of plan.mounts) argv.push(...mountArguments(mount));
  const { namespaces } = plan;
  if (namespaces.user) argv.push('--unshare-user');
  if (namespaces.user && plan.identity)
    argv.push('--uid', String(plan.identity.uid), '--gid', String(plan.identity.gid));
  if (namespaces.pid) argv.push('--unshare-pid');
  if (namespaces.network) argv.push('--unshare-net');
  if (namespaces.ipc) argv.push('--unshare-ipc');
  if (namespaces.uts) argv.push('--unshare-uts', '--hostname', 'clawsmith-sandbox');
  if (namespaces.cgroup) argv.push('--unshare-cgroup-try');
  if (plan.newSession) argv.push('--new-session');
  if (plan.dieWithParent) argv.push('--die-with-parent');
  if (plan.dropCapabilities) argv.push('--cap-drop', 'ALL');
  // Behind a network bridge the filter is loaded by the bridge, after it forked (it needs its Unix socket).
  if (plan.unixSockets === 'denied' && !plan.networkBridge)
    argv.push('--seccomp', String(UNIX_SOCKET_FILTER_DESCRIPTOR));
  argv.push('--clearenv');
  // The bridge starts in the C locale and gives the command its own LC_ALL back.
  const environment = plan.networkBridge ? { ...plan.environment, LC_ALL: BRIDGE_LOCALE } : plan.environment;
  for (const [name, value] of Object.entries(environment).sort(([left], [right]) => left.localeCompare(right)))
    argv.push('--setenv', name, value);
  argv.push('--chdir', plan.workingDirectory, '--');
  const command = limitedCommandArguments(plan);
  argv.push(
    ...(plan.networkBridge ? bridgedCommandArguments(plan.networkBridge, command, plan.environment.LC_ALL) : command),
  );
  return argv;
}
