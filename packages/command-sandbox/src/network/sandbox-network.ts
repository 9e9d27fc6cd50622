import { join } from 'node:path';
import { SandboxUnavailableError } from '../errors.js';
import type { SandboxPlan } from '../sandbox/sandbox-plan.js';
import { resolveTrustedLauncher } from '../process/trusted-launcher.js';
import { isUnixSocketFilterArchitecture, unixSocketFilterProgram } from '../sandbox/unix-socket-filter.js';
import { NETWORK_SYSTEM_CALLS } from './network-bridge.js';
import type { CommandNetworkAllowlist } from './network-allowlist.js';
import { startNetworkProxy, type NetworkProxy, type NetworkRelayLaunch } from './network-proxy.js';
import { prepareNextNamespace, takePreparedNamespace, type WaitingNamespace } from './prepared-network-namespace.js';

/** Where the proxy's folder appears inside the sandbox (under the sandbox's own empty `/run`). */
export const PROXY_FOLDER_IN_SANDBOX = '/run/clawsmith-network';
/** The loopback port the bridge listens on inside the sandbox (its own network namespace). */
export const BRIDGE_PORT = 3128;

/** The proxy environment: both spellings, since tools read one or the other. */
function proxyEnvironment(port: number): Record<string, string> {
  const proxy = `http://127.0.0.1:${port}`;
  return {
    HTTP_PROXY: proxy,
    HTTPS_PROXY: proxy,
    http_proxy: proxy,
    https_proxy: proxy,
    ALL_PROXY: proxy,
    all_proxy: proxy,
    NO_PROXY: '',
    no_proxy: '',
  };
}

/** A command's way to the proxy: its share of the proxy, and the prepared namespace it runs in (if any). */
export interface AttachedNetwork {
  readonly plan: SandboxPlan;
  readonly proxy: NetworkProxy;
  /** The waiting namespace the sandbox must start in (the plan then makes no network namespace). */
  readonly namespace?: WaitingNamespace;
  /** Call once the command has ended (or failed to start). */
  readonly release: () => void;
}

function relayLaunchHere(sandbox: 'bubblewrap' | 'sandbox-exec' | 'none'): NetworkRelayLaunch {
  if (sandbox !== 'bubblewrap')
    throw new SandboxUnavailableError(
      'a network allowlist needs bubblewrap (a network namespace whose only way out is the proxy); without it the command would have all of the network or none. Turn the allowlist off, or run where bubblewrap works',
    );
  const systemCalls = NETWORK_SYSTEM_CALLS[process.arch];
  const perl = resolveTrustedLauncher('perl');
  if (!isUnixSocketFilterArchitecture(process.arch) || systemCalls === undefined || !perl.found)
    throw new SandboxUnavailableError(
      `a network allowlist needs Perl from the system folders and an x64 or arm64 machine for its bridge (${perl.found ? process.arch : perl.detail})`,
    );
  return { perl: perl.program, systemCalls };
}

/**
 * The network of one command with a domain allowlist. Where it can, the command takes a network
 * namespace prepared ahead (loopback up, the proxy port already handed to the relay): bubblewrap
 * starts inside it and makes no network namespace of its own, and the Unix socket filter is
 * bubblewrap's `--seccomp`. On a terminal, or when preparing fails, the command runs behind the
 * bridge instead (see {@link attachNetworkProxy}); never with an open network. Throws
 * `sandbox_unavailable` where neither can be had. `namespaceLaunch` is how namespaces are
 * prepared (default: as the relay is started).
 */
export async function attachNetwork(
  plan: SandboxPlan,
  allowlist: CommandNetworkAllowlist,
  sandbox: 'bubblewrap' | 'sandbox-exec' | 'none',
  terminal: boolean,
  namespaceLaunch?: NetworkRelayLaunch,
): Promise<AttachedNetwork> {
  const relayLaunch = relayLaunchHere(sandbox);
  const preparation = namespaceLaunch ?? relayLaunch;
  if (!terminal) {
    const proxy = await startNetworkProxy(allowlist, relayLaunch);
    const namespace = await takePreparedNamespace(preparation, BRIDGE_PORT, {
      socketPath: join(proxy.sandboxFolder, proxy.socketName),
      commandToken: proxy.commandToken,
    });
    if (namespace) {
      return {
        proxy,
        namespace,
        release: () => {
          namespace.abandon();
          void proxy.close();
          prepareNextNamespace(preparation, BRIDGE_PORT);
        },
        plan: {
          ...plan,
          namespaces: { ...plan.namespaces, network: false },
          environment: { ...plan.environment, ...proxyEnvironment(BRIDGE_PORT) },
          preparedNetwork: { domains: allowlist.domains },
        },
      };
    }
    await proxy.close();
  }
  const bridged = await attachNetworkProxy(plan, allowlist, sandbox);
  return { ...bridged, release: () => void bridged.proxy.close() };
}

/**
 * Starts the proxy for one command and returns the plan that reaches it through the bridge: the
 * network namespace stays unshared (no route out), the proxy's folder is bound read-only into the
 * sandbox, the proxy variables are set, and the command runs behind the bridge. Throws
 * `sandbox_unavailable` where that cannot be had (no bubblewrap, no trusted Perl, an
 * architecture the filter does not know).
 */
export async function attachNetworkProxy(
  plan: SandboxPlan,
  allowlist: CommandNetworkAllowlist,
  sandbox: 'bubblewrap' | 'sandbox-exec' | 'none',
): Promise<{ plan: SandboxPlan; proxy: NetworkProxy }> {
  const relayLaunch = relayLaunchHere(sandbox);
  const { perl, systemCalls } = relayLaunch;
  const proxy = await startNetworkProxy(allowlist, relayLaunch);
  return {
    proxy,
    plan: {
      ...plan,
      mounts: [
        ...plan.mounts,
        {
          kind: 'read-only',
          source: proxy.sandboxFolder,
          target: PROXY_FOLDER_IN_SANDBOX,
          purpose: 'the network proxy',
        },
      ],
      environment: { ...plan.environment, ...proxyEnvironment(BRIDGE_PORT) },
      networkBridge: {
        perl,
        socketPath: `${PROXY_FOLDER_IN_SANDBOX}/${proxy.socketName}`,
        port: BRIDGE_PORT,
        systemCalls: { prctl: systemCalls.prctl, sendmsg: systemCalls.sendmsg, pidfdOpen: systemCalls.pidfdOpen },
        commandToken: proxy.commandToken,
        filterProgram: unixSocketFilterProgram(),
        domains: allowlist.domains,
      },
    },
  };
}
