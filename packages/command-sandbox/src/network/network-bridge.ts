import { programText } from '../programs/program-text.js';

/** The bridge, from `programs/network-bridge.pl` (what it does and why is said there). */
const BRIDGE_PERL = programText('network-bridge.pl');

/** prctl(2)'s system call number on the architectures the Unix socket filter knows. */
export const PRCTL_SYSTEM_CALLS: Readonly<Record<string, number>> = { x64: 157, arm64: 167 };

/** What the sandbox plan carries to run the command behind the bridge. */
export interface NetworkBridge {
  /** The trusted Perl (the same path inside the sandbox: the host root is bound read-only). */
  readonly perl: string;
  /** The proxy's socket as the sandbox sees it. */
  readonly socketPath: string;
  /** The loopback port the bridge listens on inside the sandbox. */
  readonly port: number;
  /** prctl's system call number here. */
  readonly prctlSystemCall: number;
  /** The Unix socket filter the command gets (its bytes, as bubblewrap's `--seccomp` would load them). */
  readonly filterProgram: Buffer;
  /** The domain patterns, for the result's words. */
  readonly domains: readonly string[];
}

/** The argv that starts the bridge and then, filtered, the command (`command` is its argv). */
export function bridgedCommandArguments(bridge: NetworkBridge, command: readonly string[]): string[] {
  return [
    bridge.perl,
    '-e',
    BRIDGE_PERL,
    bridge.socketPath,
    String(bridge.port),
    String(bridge.prctlSystemCall),
    bridge.filterProgram.toString('hex'),
    ...command,
  ];
}
