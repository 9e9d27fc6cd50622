import { contentKind, looksBinary, mediaType } from './content-kind.js';
import { fetchResponse, parseFetchUrl, type StoppedRedirect } from './fetch-response.js';
import { WEB_FETCH_ERROR_CODES, WebFetchError } from './web-fetch-errors.js';
import { WEB_FETCH_DEFAULTS, type WebFetchOptions } from './web-fetch-options.js';

/** One page fetched and made readable. */
export interface ReadableFetch {
  readonly kind: 'page';
  /** The URL asked for. */
  readonly requestedUrl: string;
  /** The URL the content came from, after redirects. */
  readonly url: string;
  readonly redirects: readonly string[];
  readonly status: number;
  readonly statusText: string;
  /** The media type, e.g. `text/html`; empty when the server sent none. */
  readonly mediaType: string;
  readonly title?: string;
  /** Markdown for HTML (`format: 'markdown'`), the text otherwise. */
  readonly text: string;
  readonly format: 'markdown' | 'text';
  /** Bytes of body read (after decompression). */
  readonly bodyBytes: number;
  /** The body was cut at `maxBodyBytes`. */
  readonly truncated: boolean;
  /** The address the final response came from. */
  readonly address: string;
}

/** A redirect to another host that was not followed. */
export interface RedirectedFetch {
  readonly kind: 'redirect';
  readonly requestedUrl: string;
  readonly status: number;
  /** Where the page wants to go: fetch it with a new call. */
  readonly location: string;
  readonly redirects: readonly string[];
}

function timeoutError(url: string, timeoutMs: number): WebFetchError {
  return new WebFetchError(
    WEB_FETCH_ERROR_CODES.timeout,
    url,
    `Fetching ${url} took longer than ${Math.round(timeoutMs / 1000)} s and was stopped; try again or try another source.`,
    { retryable: true },
  );
}

function stopped(requestedUrl: string, redirect: StoppedRedirect): RedirectedFetch {
  return {
    kind: 'redirect',
    requestedUrl,
    status: redirect.status,
    location: redirect.target.href,
    redirects: [...redirect.redirects, redirect.stoppedAt.href],
  };
}

/**
 * Fetches one http(s) URL and returns it as readable text, following the limits and address
 * checks of `options`. Throws a {@link WebFetchError} for a refusal (scheme, address, binary type,
 * redirects, time) and rethrows `signal`'s reason when the caller cancels.
 */
export async function fetchReadable(
  text: string,
  options: WebFetchOptions = {},
  signal?: AbortSignal,
): Promise<ReadableFetch | RedirectedFetch> {
  const start = parseFetchUrl(text);
  const timeoutMs = options.timeoutMs ?? WEB_FETCH_DEFAULTS.timeoutMs;
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let response;
  try {
    response = await fetchResponse(start, {
      ...(options.allowance ? { allowance: options.allowance } : {}),
      ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
      maxRedirects: options.maxRedirects ?? WEB_FETCH_DEFAULTS.maxRedirects,
      maxBodyBytes: options.maxBodyBytes ?? WEB_FETCH_DEFAULTS.maxBodyBytes,
      crossHostRedirects: options.crossHostRedirects ?? 'stop',
      userAgent: options.userAgent ?? WEB_FETCH_DEFAULTS.userAgent,
      signal: combined,
      refuseContentType: (contentType) => contentKind(contentType) === 'binary',
    });
  } catch (error) {
    if (timeout.aborted && !signal?.aborted) throw timeoutError(start.href, timeoutMs);
    throw error;
  }
  if ('target' in response) return stopped(start.href, response);
  let kind = contentKind(response.contentType);
  if (kind === 'unknown') kind = looksBinary(response.body) ? 'binary' : 'text';
  if (kind === 'binary' || (kind === 'text' && looksBinary(response.body)))
    throw new WebFetchError(
      WEB_FETCH_ERROR_CODES.binaryContent,
      response.url.href,
      `${response.url.href} holds binary data: web_fetch returns text only. Download it with a command if you need the file.`,
    );
  // The HTML parser, Readability and Turndown (some 200 modules) load on the first page fetched,
  // not when the tool is registered: an agent that never fetches starts without them.
  const { decodeBody, htmlToMarkdown } = await import('./readable-text.js');
  const decoded = decodeBody(response.body, response.contentType, kind === 'html');
  const page =
    kind === 'html' ? htmlToMarkdown(decoded, response.url) : { text: decoded, extracted: false, title: undefined };
  return {
    kind: 'page',
    requestedUrl: start.href,
    url: response.url.href,
    redirects: response.redirects,
    status: response.status,
    statusText: response.statusText,
    mediaType: mediaType(response.contentType),
    ...(page.title === undefined ? {} : { title: page.title }),
    text: page.text,
    format: kind === 'html' ? 'markdown' : 'text',
    bodyBytes: response.body.length,
    truncated: response.truncated,
    address: response.address,
  };
}
