import { promises as dns } from 'node:dns';
import type { LookupFunction } from 'node:net';
import {
  checkHostAddresses,
  isNetworkAddress,
  normalizeHost,
  type NetworkAddressAllowance,
} from '@clawsmith/tool-protocol';
import { WEB_FETCH_ERROR_CODES, WebFetchError } from './web-fetch-errors.js';
import type { HostResolver } from './web-fetch-options.js';

/** One address that passed the check, and the lookup that hands exactly it to the connection. */
export interface CheckedAddress {
  readonly address: string;
  readonly family: 4 | 6;
  /** For `http.request({ lookup })`: answers every lookup with the checked address, never asking DNS again. */
  readonly lookup: LookupFunction;
}

const systemResolver: HostResolver = (host) => dns.lookup(host, { all: true, verbatim: true });

/**
 * Resolves `url`'s host and checks every address it has (see `checkHostAddresses`). Throws
 * `address_refused` or `host_not_found`; returns the one address the connection may use.
 */
export async function checkedAddress(
  url: URL,
  allowance: NetworkAddressAllowance | undefined,
  resolveHost: HostResolver = systemResolver,
): Promise<CheckedAddress> {
  const host = normalizeHost(url.hostname);
  let addresses: string[];
  if (isNetworkAddress(host)) addresses = [host];
  else {
    try {
      addresses = (await resolveHost(host)).map((entry) => entry.address);
    } catch (error) {
      throw new WebFetchError(
        WEB_FETCH_ERROR_CODES.hostNotFound,
        url.href,
        `The host ${host} could not be resolved; check the URL's spelling.`,
        { cause: error },
      );
    }
  }
  const verdict = checkHostAddresses(host, addresses, allowance);
  if (!verdict.allowed)
    throw new WebFetchError(
      WEB_FETCH_ERROR_CODES.addressRefused,
      url.href,
      `Refused to fetch ${url.href}: ${verdict.reason} Private, loopback, link-local and metadata addresses are not fetched.`,
    );
  const address = verdict.address;
  const family = address.includes(':') ? 6 : 4;
  const lookup: LookupFunction = (_hostname, options, callback) => {
    // Node asks with `all: true` when it may try several addresses (autoSelectFamily).
    if ((options as { all?: boolean }).all)
      (callback as unknown as (error: null, entries: { address: string; family: number }[]) => void)(null, [
        { address, family },
      ]);
    else callback(null, address, family);
  };
  return { address, family, lookup };
}
