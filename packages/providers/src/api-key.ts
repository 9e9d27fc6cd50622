import { PROVIDER_ERROR_CODES, ProviderError } from './provider-error.js';

/** Environment variables, as `process.env` holds them. */
export type ProviderEnvironment = Readonly<Record<string, string | undefined>>;

/** Sent as the key to a local server that needs none (the SDKs refuse to run without one). */
export const LOCAL_SERVER_PLACEHOLDER_KEY = 'clawsmith-local-no-key';

const PRIVATE_IPV4 = [/^127\./, /^10\./, /^192\.168\./, /^172\.(1[6-9]|2\d|3[01])\./, /^169\.254\./];

/**
 * Whether `baseURL` points at this machine or a private network (Ollama, vLLM, llama.cpp and
 * LM Studio usually run there and need no key). Unparseable URLs are not local.
 */
export function isLocalBaseURL(baseURL: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(baseURL).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (hostname.startsWith('[')) hostname = hostname.slice(1, -1);
  if (hostname === 'localhost' || hostname.endsWith('.localhost') || hostname.endsWith('.local')) return true;
  if (hostname === '::1' || hostname === 'host.docker.internal' || hostname === '0.0.0.0') return true;
  if (/^(fc|fd)[0-9a-f]{2}:/.test(hostname)) return true;
  // The URL parser has already normalised IPv4 forms such as `2130706433` to dotted quads.
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) && PRIVATE_IPV4.some((pattern) => pattern.test(hostname));
}

/** What an adapter needs to find its key and base URL. */
export interface CredentialLookup {
  readonly provider: string;
  readonly apiKey: string | undefined;
  readonly baseURL: string | undefined;
  readonly keyVariable: string;
  readonly baseURLVariable: string;
  readonly environment: ProviderEnvironment;
}

/**
 * The key and base URL: options first, then the environment. Without a key, a local base URL
 * gets a placeholder; anything else is a `provider_missing_api_key` error naming the variable.
 */
export function resolveCredentials(lookup: CredentialLookup): { apiKey: string; baseURL: string | undefined } {
  const baseURL = lookup.baseURL ?? (lookup.environment[lookup.baseURLVariable] || undefined);
  const apiKey = lookup.apiKey ?? (lookup.environment[lookup.keyVariable] || undefined);
  if (apiKey) return { apiKey, baseURL };
  if (baseURL !== undefined && isLocalBaseURL(baseURL)) return { apiKey: LOCAL_SERVER_PLACEHOLDER_KEY, baseURL };
  throw new ProviderError(
    lookup.provider,
    PROVIDER_ERROR_CODES.missingApiKey,
    `${lookup.provider}: no API key. Set ${lookup.keyVariable} (or pass apiKey), point ${lookup.baseURLVariable} at a local server that needs none, ` +
      'or run without a model: `clawsmith demo`, or `--script <file>` to replay scripted responses.',
  );
}
