import { ClawsmithError, type ClawsmithErrorOptions } from '@clawsmith/tool-protocol';

/** The stable codes `web_fetch` refuses or fails with. */
export const WEB_FETCH_ERROR_CODES = Object.freeze({
  /** The URL is not `http:` or `https:` (`file:`, `data:`, `ftp:`…), or cannot be parsed. */
  urlRefused: 'url_refused',
  /** The host resolved to an address that is not public and not explicitly allowed (also at a redirect hop). */
  addressRefused: 'address_refused',
  /** The host name did not resolve. */
  hostNotFound: 'host_not_found',
  /** The whole fetch took longer than its time limit. Retryable. */
  timeout: 'fetch_timeout',
  /** More redirects than the limit. */
  tooManyRedirects: 'too_many_redirects',
  /** The response is binary (an image, an archive, a PDF…): nothing readable to return. */
  binaryContent: 'binary_content',
  /** The connection failed or broke (refused, reset, TLS). Retryable. */
  fetchFailed: 'fetch_failed',
} as const);

/** A refusal or failure of `web_fetch`, with one of {@link WEB_FETCH_ERROR_CODES}. */
export class WebFetchError extends ClawsmithError {
  /** The URL the refusal is about (a redirect hop's, when it happened there). */
  readonly url: string;

  constructor(code: string, url: string, message: string, options: ClawsmithErrorOptions = {}) {
    super(code, message, options);
    this.name = 'WebFetchError';
    this.url = url;
  }
}
