import { isNetworkAddress } from '@clawsmith/tool-protocol';
import type { NetworkAddressAllowance } from '@clawsmith/tool-protocol';
import { CliError } from '../cli-errors.js';
import { EXIT_CODES } from '../exit-codes.js';

/** The network flags of `run` and `chat`, as commander gives them. */
export interface NetworkChoice {
  readonly networkAllow?: string;
  readonly webFetchAllow?: string;
  readonly webFetchDeny?: string;
  readonly allowPrivateNetwork?: string;
}

/** What the runtime gets from the network flags. */
export interface NetworkSettings {
  /** Domains commands may reach through the proxy (none: commands have no network). */
  readonly commandDomains: readonly string[];
  /** Domains `web_fetch` fetches without asking. */
  readonly webFetchAllow: readonly string[];
  /** Domains `web_fetch` never fetches. */
  readonly webFetchDeny: readonly string[];
  /** Non-public hosts and addresses `web_fetch` and the proxy may reach. */
  readonly allowance: NetworkAddressAllowance;
}

const DOMAIN_PATTERN = /^(\*|(\*\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?)$/i;

function list(flag: string, text: string | undefined, check: (entry: string) => boolean, what: string): string[] {
  if (text === undefined) return [];
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of entries)
    if (!check(entry))
      throw new CliError(
        'invalid_network_option',
        `${flag} takes a comma-separated list of ${what}; ${JSON.stringify(entry)} is not one (write hosts without a scheme, port or path, e.g. docs.example.com or *.example.com).`,
        EXIT_CODES.usage,
      );
  return entries;
}

function isAddressOrRange(entry: string): boolean {
  const [address, length] = entry.split('/');
  return isNetworkAddress(address!) && (length === undefined || /^\d{1,3}$/.test(length));
}

/**
 * Reads `--network-allow`, `--web-fetch-allow`, `--web-fetch-deny` (domain patterns) and
 * `--allow-private-network` (hosts, addresses or CIDR ranges); anything else is
 * `invalid_network_option` (exit 2).
 */
export function selectNetwork(choice: NetworkChoice): NetworkSettings {
  const isDomain = (entry: string) => DOMAIN_PATTERN.test(entry) || isNetworkAddress(entry);
  const privateEntries = list(
    '--allow-private-network',
    choice.allowPrivateNetwork,
    (entry) => isAddressOrRange(entry) || (DOMAIN_PATTERN.test(entry) && !entry.includes('*')),
    'host names, IP addresses or CIDR ranges',
  );
  return {
    commandDomains: list('--network-allow', choice.networkAllow, isDomain, 'domain patterns'),
    webFetchAllow: list('--web-fetch-allow', choice.webFetchAllow, isDomain, 'domain patterns'),
    webFetchDeny: list('--web-fetch-deny', choice.webFetchDeny, isDomain, 'domain patterns'),
    allowance: {
      privateAddresses: privateEntries.filter(isAddressOrRange),
      privateHosts: privateEntries.filter((entry) => !isAddressOrRange(entry)),
    },
  };
}
