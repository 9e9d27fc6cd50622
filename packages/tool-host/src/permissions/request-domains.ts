import { matchesDomainPattern } from '@clawsmith/tool-protocol';

/** The host of the http(s) URL a call fetches (its `url` input field), if it names one. */
export function requestHost(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const value = (input as Record<string, unknown>).url;
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the call's URL host matches one of `patterns` (see `matchesDomainPattern`). */
export function domainsMatch(patterns: readonly string[], input: unknown): boolean {
  const host = requestHost(input);
  return host !== undefined && patterns.some((pattern) => matchesDomainPattern(host, pattern));
}
