import { programsText } from '../programs/program-text.js';

/**
 * The bridge, from `programs/network-bridge.pl` (what it does and why is said there) after the
 * proxy port's handoff it shares with the prepared namespace.
 */
export const BRIDGE_PROGRAM = ['proxy-port-handoff.pl', 'network-bridge.pl'] as const;
const BRIDGE_PERL = programsText(...BRIDGE_PROGRAM);

/** The system call numbers the bridge, the prepared namespace and the relay use, on one architecture. */
export interface NetworkSystemCalls {
  readonly prctl: number;
  readonly sendmsg: number;
  readonly recvmsg: number;
  readonly splice: number;
  readonly pidfdOpen: number;
  readonly unshare: number;
}

/** The system call numbers on the architectures the Unix socket filter knows. */
export const NETWORK_SYSTEM_CALLS: Readonly<Record<string, NetworkSystemCalls>> = {
  x64: { prctl: 157, sendmsg: 46, recvmsg: 47, splice: 275, pidfdOpen: 434, unshare: 272 },
  arm64: { prctl: 167, sendmsg: 211, recvmsg: 212, splice: 76, pidfdOpen: 434, unshare: 97 },
};

/** The bridge's own locale: with `C`, Perl loads no locale files at start. */
export const BRIDGE_LOCALE = 'C';

/** What the sandbox plan carries to run the command behind the bridge. */
export interface NetworkBridge {
  /** The trusted Perl (the same path inside the sandbox: the host root is bound read-only). */
  readonly perl: string;
  /** The relay's socket as the sandbox sees it. */
  readonly socketPath: string;
  /** The command's token, which the bridge names to the relay first (32 hex digits). */
  readonly commandToken: string;
  /** The loopback port the bridge listens on inside the sandbox. */
  readonly port: number;
  /** prctl's, sendmsg's and pidfd_open's system call numbers here. */
  readonly systemCalls: Pick<NetworkSystemCalls, 'prctl' | 'sendmsg' | 'pidfdOpen'>;
  /** The Unix socket filter the command gets (its bytes, as bubblewrap's `--seccomp` would load them). */
  readonly filterProgram: Buffer;
  /** The domain patterns, for the result's words. */
  readonly domains: readonly string[];
}

/**
 * The argv that starts the bridge and then, filtered, the command (`command` is its argv). The
 * sandbox starts the bridge with `LC_ALL=C` (see {@link BRIDGE_LOCALE}); `commandLocale` is the
 * command's own `LC_ALL`, which the bridge restores (or removes, when undefined) before the command runs.
 */
export function bridgedCommandArguments(
  bridge: NetworkBridge,
  command: readonly string[],
  commandLocale?: string,
): string[] {
  return [
    bridge.perl,
    '-e',
    BRIDGE_PERL,
    bridge.socketPath,
    bridge.commandToken,
    String(bridge.port),
    String(bridge.systemCalls.prctl),
    String(bridge.systemCalls.sendmsg),
    String(bridge.systemCalls.pidfdOpen),
    bridge.filterProgram.toString('hex'),
    commandLocale === undefined ? '-' : `=${commandLocale}`,
    ...command,
  ];
}
