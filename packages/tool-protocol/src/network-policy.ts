import { addressInRange, classifyNetworkAddress, type NetworkAddressKind } from './network-address.js';

/**
 * The explicit exceptions to "public addresses only", shared by `web_fetch` and the command
 * sandbox's proxy. Empty by default: the machine itself, its networks and metadata services are
 * unreachable until a person names them.
 */
export interface NetworkAddressAllowance {
  /** Host names (lower case, exact) whose resolved addresses may be of any kind, for example `localhost`. */
  readonly privateHosts?: readonly string[];
  /** Addresses or CIDR ranges that may be reached although they are not public, for example `127.0.0.1` or `10.1.0.0/16`. */
  readonly privateAddresses?: readonly string[];
}

/** The verdict on the addresses one host resolved to. */
export type NetworkAddressVerdict =
  | { readonly allowed: true; /** The address to connect to: the first one checked. */ readonly address: string }
  | {
      readonly allowed: false;
      /** The first refused address, when one was refused (absent when nothing resolved). */
      readonly address?: string;
      readonly kind?: NetworkAddressKind;
      /** A sentence for the model or the person: what was refused and what to do. */
      readonly reason: string;
    };

/** A host as rules compare it: lower case, without brackets or a trailing dot. */
export function normalizeHost(host: string): string {
  return host
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
}

/**
 * Checks every address `host` resolved to: all must be public, or allowed by `allowance` (the
 * host by name, or each address by range). One refused address refuses the host, since the
 * connection could otherwise land on it. Connect only to the returned address: a second lookup
 * could answer differently.
 */
export function checkHostAddresses(
  host: string,
  addresses: readonly string[],
  allowance: NetworkAddressAllowance = {},
): NetworkAddressVerdict {
  const name = normalizeHost(host);
  if (addresses.length === 0) return { allowed: false, reason: `${name} did not resolve to any address.` };
  const hostAllowed = (allowance.privateHosts ?? []).some((allowed) => normalizeHost(allowed) === name);
  for (const address of addresses) {
    const kind = classifyNetworkAddress(address);
    if (kind === 'invalid') return { allowed: false, address, kind, reason: `${address} is not an IP address.` };
    if (kind === 'public' || hostAllowed) continue;
    if ((allowance.privateAddresses ?? []).some((allowed) => addressInRange(address, allowed))) continue;
    const via = name === normalizeHost(address) ? '' : ` (${name} resolves to it)`;
    return {
      allowed: false,
      address,
      kind,
      reason: `${address}${via} is a ${kind} address, which is refused unless it is explicitly allowed.`,
    };
  }
  return { allowed: true, address: addresses[0]! };
}

/**
 * Whether `host` matches a domain pattern: `example.com` matches that host only, `*.example.com`
 * any host below it (not `example.com` itself), `*` every host. Case and a trailing dot are
 * ignored; an IP address matches only itself.
 */
export function matchesDomainPattern(host: string, pattern: string): boolean {
  const name = normalizeHost(host);
  const wanted = normalizeHost(pattern);
  if (wanted === '*') return true;
  if (wanted.startsWith('*.')) return name.endsWith(wanted.slice(1)) && name.length > wanted.length - 1;
  return name === wanted;
}
