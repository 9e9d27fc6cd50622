import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import type { NetworkAddressAllowance } from '@clawsmith/tool-protocol';
import { checkedAddress } from './checked-address.js';
import { WEB_FETCH_ERROR_CODES, WebFetchError } from './web-fetch-errors.js';
import type { HostResolver } from './web-fetch-options.js';

/** What one fetch brought back, after its redirects. */
export interface FetchedResponse {
  /** The URL the body came from (after redirects). */
  readonly url: URL;
  /** Every URL before it, in order. */
  readonly redirects: readonly string[];
  readonly status: number;
  readonly statusText: string;
  /** The `Content-Type` header, lower case; empty when absent. */
  readonly contentType: string;
  readonly body: Buffer;
  /** The body was cut at `maxBodyBytes`. */
  readonly truncated: boolean;
  /** The address connected to for the final response. */
  readonly address: string;
}

/** A redirect to another host that was not followed (`crossHostRedirects: 'stop'`). */
export interface StoppedRedirect {
  readonly stoppedAt: URL;
  readonly target: URL;
  readonly status: number;
  readonly redirects: readonly string[];
}

/** Limits and policy of one fetch. */
export interface FetchLimits {
  readonly allowance?: NetworkAddressAllowance;
  readonly maxRedirects: number;
  readonly maxBodyBytes: number;
  readonly crossHostRedirects: 'stop' | 'follow';
  readonly resolveHost?: HostResolver;
  readonly userAgent: string;
  /** Aborts the whole fetch (time limit and the caller's cancel). */
  readonly signal: AbortSignal;
  /** Says whether a binary content type ends the fetch before its body is read. */
  readonly refuseContentType: (contentType: string) => boolean;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Throws `url_refused` for anything but an absolute http(s) URL without credentials. */
export function parseFetchUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebFetchError(
      WEB_FETCH_ERROR_CODES.urlRefused,
      text,
      `"${text}" is not an absolute URL; give one that starts with https:// or http://.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new WebFetchError(
      WEB_FETCH_ERROR_CODES.urlRefused,
      text,
      `Only http and https URLs are fetched; ${url.protocol} is refused (files are read with read_file).`,
    );
  if (url.username !== '' || url.password !== '')
    throw new WebFetchError(
      WEB_FETCH_ERROR_CODES.urlRefused,
      text,
      'URLs with a user name or password are refused; give the URL without credentials.',
    );
  url.hash = '';
  return url;
}

function decoded(response: IncomingMessage): Readable {
  switch ((response.headers['content-encoding'] ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return response.pipe(createGunzip());
    case 'deflate':
      return response.pipe(createInflate());
    case 'br':
      return response.pipe(createBrotliDecompress());
    default:
      return response;
  }
}

async function readBounded(stream: Readable, limit: number): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    // Counted after decompression: a small compressed body cannot expand past the limit.
    if (size + chunk.length > limit) {
      chunks.push(chunk.subarray(0, limit - size));
      stream.destroy();
      return { body: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: Buffer.concat(chunks), truncated: false };
}

function failure(url: URL, signal: AbortSignal, error: unknown): never {
  if (signal.aborted) throw signal.reason;
  const code = (error as { code?: string }).code ?? 'unknown error';
  throw new WebFetchError(
    WEB_FETCH_ERROR_CODES.fetchFailed,
    url.href,
    `Fetching ${url.href} failed (${code}: ${(error as Error).message}); the server may be down or the URL wrong.`,
    { retryable: true, cause: error },
  );
}

async function requestOnce(url: URL, limits: FetchLimits): Promise<{ response: IncomingMessage; address: string }> {
  // The address is checked before this hop connects, and the connection gets exactly it.
  const checked = await checkedAddress(url, limits.allowance, limits.resolveHost);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(url, {
      method: 'GET',
      lookup: checked.lookup,
      signal: limits.signal,
      agent: false,
      headers: {
        'user-agent': limits.userAgent,
        accept: 'text/html,application/xhtml+xml,text/markdown,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5',
        'accept-encoding': 'gzip, deflate, br',
      },
    });
    request.on('response', (response) => resolve({ response, address: checked.address }));
    request.on('error', (error) => reject(error));
    request.end();
  }).catch((error: unknown) => failure(url, limits.signal, error)) as Promise<{
    response: IncomingMessage;
    address: string;
  }>;
}

/**
 * GETs `start`, following redirects within the limits, checking every hop's addresses before
 * connecting. Resolves to the final response, or to a redirect it stopped at.
 */
export async function fetchResponse(start: URL, limits: FetchLimits): Promise<FetchedResponse | StoppedRedirect> {
  const redirects: string[] = [];
  let url = start;
  for (;;) {
    const { response, address } = await requestOnce(url, limits);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (REDIRECT_STATUSES.has(status) && location !== undefined) {
      response.resume();
      const target = parseFetchUrl(new URL(location, url).href);
      if (target.hostname !== url.hostname && limits.crossHostRedirects === 'stop')
        return { stoppedAt: url, target, status, redirects };
      redirects.push(url.href);
      if (redirects.length > limits.maxRedirects)
        throw new WebFetchError(
          WEB_FETCH_ERROR_CODES.tooManyRedirects,
          start.href,
          `${start.href} redirected more than ${limits.maxRedirects} times (last to ${target.href}); fetch the final URL directly.`,
        );
      url = target;
      continue;
    }
    const contentType = String(response.headers['content-type'] ?? '').toLowerCase();
    if (limits.refuseContentType(contentType)) {
      response.destroy();
      throw new WebFetchError(
        WEB_FETCH_ERROR_CODES.binaryContent,
        url.href,
        `${url.href} is ${contentType} (binary): web_fetch returns text only. Download it with a command if you need the file.`,
      );
    }
    try {
      const { body, truncated } = await readBounded(decoded(response), limits.maxBodyBytes);
      return {
        url,
        redirects,
        status,
        statusText: response.statusMessage ?? '',
        contentType,
        body,
        truncated,
        address,
      };
    } catch (error) {
      failure(url, limits.signal, error);
    }
  }
}
