import type { NetworkAddressAllowance } from '@clawsmith/tool-protocol';

/** Resolves a host name to every address it has (as `dns.promises.lookup(host, { all: true })`). */
export type HostResolver = (host: string) => Promise<readonly { address: string; family: number }[]>;

/** Options of {@link createWebFetchTool} and {@link fetchReadable}. */
export interface WebFetchOptions {
  /** Non-public hosts or addresses that may be reached anyway (none by default). */
  readonly allowance?: NetworkAddressAllowance;
  /** Time for the whole fetch, redirects included, in milliseconds. Default 30,000. */
  readonly timeoutMs?: number;
  /** Redirects followed at most. Default 5. */
  readonly maxRedirects?: number;
  /** Bytes of body read at most (after decompression); beyond it the text is cut and says so. Default 10 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * Redirects to another host: `'stop'` (default) ends the call with `redirect_to_other_host`
   * and names the target, so a new call passes the permission rules for that host; `'follow'`
   * follows them (each hop's addresses are still checked).
   */
  readonly crossHostRedirects?: 'stop' | 'follow';
  /** How host names are resolved. Default the system resolver (`dns.promises.lookup`). */
  readonly resolveHost?: HostResolver;
  /** The `User-Agent` header. Default `clawsmith-web-fetch/0.1`. */
  readonly userAgent?: string;
}

/** The defaults of {@link WebFetchOptions} that are part of the contract. */
export const WEB_FETCH_DEFAULTS = Object.freeze({
  timeoutMs: 30_000,
  maxRedirects: 5,
  maxBodyBytes: 10 * 1024 * 1024,
  userAgent: 'clawsmith-web-fetch/0.1',
});
