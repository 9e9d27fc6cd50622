import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandNetworkAllowlist, RefusedHost } from './network-allowlist.js';
import type { NetworkSystemCalls } from './network-bridge.js';
import { createDecisionServer } from './network-decisions.js';
import { startNetworkRelay, type NetworkRelay } from './network-relay.js';

/**
 * One command's use of the network proxy: the relay listens on a Unix socket in a folder bound
 * into the sandbox; the proxy's decision socket is beside that folder, out of the sandbox's sight.
 */
export interface NetworkProxy {
  /** The folder holding the relay's socket (in a private folder, mode 0700); bound into the sandbox. */
  readonly sandboxFolder: string;
  /** The relay socket's file name inside {@link sandboxFolder}. */
  readonly socketName: string;
  /** The command's token: its bridge names it to the relay, so refusals are the command's own. */
  readonly commandToken: string;
  /** The hosts refused for this command so far, each once, in order. */
  refusedHosts(): RefusedHost[];
  /** Whether the proxy (its relay and decision server) still runs. */
  serving(): boolean;
  /** Ends this command's use: later questions for its token are refused. */
  close(): Promise<void>;
}

/** How the proxy starts its relay. */
export interface NetworkRelayLaunch {
  /** The trusted Perl. */
  readonly perl: string;
  /** The system call numbers here. */
  readonly systemCalls: NetworkSystemCalls;
}

/** How long a proxy with no running command stays up for the next one. */
const IDLE_MS = 10_000;

interface ProxyService {
  readonly sandboxFolder: string;
  readonly commands: Map<string, Map<string, RefusedHost>>;
  idle?: NodeJS.Timeout;
  stopped(): boolean;
  stop(): void;
}

// One proxy (decision server and relay) per allowlist object, shared by the commands that use it:
// a command then starts no process and binds no socket of its own.
const services = new WeakMap<CommandNetworkAllowlist, Promise<ProxyService>>();

async function startService(
  relayLaunch: NetworkRelayLaunch,
  allowlist: CommandNetworkAllowlist,
  forget: () => void,
): Promise<ProxyService> {
  const folder = mkdtempSync(join(tmpdir(), 'clawsmith-network-'));
  const sandboxFolder = join(folder, 'sandbox');
  const commands = new Map<string, Map<string, RefusedHost>>();
  const decisions = createDecisionServer(allowlist, (token) => commands.get(token));
  let relay: NetworkRelay | undefined;
  let stopped = false;
  const removeFolder = () => rmSync(folder, { recursive: true, force: true });
  const stop = () => {
    if (stopped) return;
    stopped = true;
    forget();
    process.off('exit', stop);
    relay?.stop();
    decisions.close();
    decisions.closeAllConnections();
    removeFolder();
  };
  process.once('exit', stop);
  try {
    mkdirSync(sandboxFolder, { mode: 0o700 });
    const decisionPath = join(folder, 'decision.sock');
    await new Promise<void>((resolve, reject) => {
      decisions.once('error', reject);
      decisions.listen(decisionPath, () => resolve());
    });
    decisions.unref();
    relay = await startNetworkRelay({
      ...relayLaunch,
      listenPath: join(sandboxFolder, 'proxy.sock'),
      decisionPath,
      // A relay that ends on its own takes this proxy with it; the next command starts another.
      onExit: stop,
    });
  } catch (error) {
    stop();
    throw error;
  }
  return { sandboxFolder, commands, stop, stopped: () => stopped };
}

/**
 * The proxy for one command with a domain allowlist: the allowlist's shared proxy (started on
 * first use, stopped after 10 s without a command), and a token for this command's refusals.
 */
export async function startNetworkProxy(
  allowlist: CommandNetworkAllowlist,
  relayLaunch: NetworkRelayLaunch,
): Promise<NetworkProxy> {
  let service: ProxyService;
  do {
    let pending = services.get(allowlist);
    if (!pending) {
      const started: Promise<ProxyService> = startService(relayLaunch, allowlist, () => {
        if (services.get(allowlist) === started) services.delete(allowlist);
      });
      pending = started;
      services.set(allowlist, started);
    }
    service = await pending;
  } while (service.stopped());
  clearTimeout(service.idle);
  const commandToken = randomBytes(16).toString('hex');
  const refused = new Map<string, RefusedHost>();
  service.commands.set(commandToken, refused);
  return {
    sandboxFolder: service.sandboxFolder,
    socketName: 'proxy.sock',
    commandToken,
    refusedHosts: () => [...refused.values()],
    serving: () => !service.stopped(),
    close: async () => {
      if (!service.commands.delete(commandToken) || service.commands.size > 0) return;
      service.idle = setTimeout(service.stop, IDLE_MS).unref();
    },
  };
}
