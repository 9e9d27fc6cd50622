import type { NetworkAddressAllowance } from '@clawsmith/tool-protocol';

/** Resolves a host name to every address it has (as `dns.promises.lookup(host, { all: true })`). */
export type ProxyHostResolver = (host: string) => Promise<readonly { address: string; family: number }[]>;

/**
 * Network for commands through a proxy only, to named domains. The command's network namespace
 * has no route out; a proxy outside the sandbox (HTTP `CONNECT` and plain HTTP) allows or refuses
 * each host by `domains`, and checks every address a host resolves to as `web_fetch` does.
 */
export interface CommandNetworkAllowlist {
  /** Domain patterns: `registry.npmjs.org` that host only, `*.example.com` any host below it. */
  readonly domains: readonly string[];
  /** Non-public hosts or addresses that may be reached anyway (none by default). */
  readonly allowance?: NetworkAddressAllowance;
  /** How host names are resolved; default the system resolver. */
  readonly resolveHost?: ProxyHostResolver;
}

/** One host the proxy refused during a command, and why. */
export interface RefusedHost {
  /** The host as the command asked for it (`host` or `host:port`). */
  readonly host: string;
  /** `not-allowed` (not in the domain list) or `address` (it resolved to a refused address), or `unresolved`. */
  readonly reason: 'not-allowed' | 'address' | 'unresolved';
  /** A sentence for the model. */
  readonly detail: string;
}
