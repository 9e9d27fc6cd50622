import type { RefusedHost } from './network-allowlist.js';

/** How a result names the command's network: on, off, or only the allowlist's domains. */
export function sandboxNetworkWords(result: {
  readonly network: boolean;
  readonly networkAllowlist?: readonly string[];
}): string {
  if (result.networkAllowlist) return `network only to ${result.networkAllowlist.join(', ')} (through the proxy)`;
  return `network ${result.network ? 'on' : 'off'}`;
}

const SHOWN = 20;

/** The result's lines for hosts the proxy refused: what the model needs to know why a download failed. */
export function networkRefusalLines(refused: readonly RefusedHost[] | undefined): string[] {
  if (!refused || refused.length === 0) return [];
  const lines = refused.slice(0, SHOWN).map((host) => `- ${host.host}: ${host.detail}`);
  if (refused.length > SHOWN) lines.push(`- and ${refused.length - SHOWN} more`);
  return [`The network proxy refused ${refused.length} host${refused.length === 1 ? '' : 's'}:`, ...lines];
}

/** The display field listing refused hosts, when there are any. */
export function networkRefusalFields(
  refused: readonly RefusedHost[] | undefined,
): { readonly label: string; readonly value: string }[] {
  if (!refused || refused.length === 0) return [];
  return [{ label: 'network refused', value: refused.map((host) => host.host).join(', ') }];
}
