// Which link targets from model text the page keeps: only web pages and mail addresses. Anything
// else (javascript:, data:, file:, a relative path into this server's API) is dropped, and the
// link is shown as plain text.

const KEPT_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** `url` when it is an absolute `http(s)` or `mailto` URL, else `''` (the link becomes text). */
export function linkTarget(url: string): string {
  const trimmed = url.trim();
  // Browsers strip tabs and newlines inside a URL's scheme; refuse anything that could hide one.
  // eslint-disable-next-line no-control-regex
  if (trimmed === '' || /[\u0000-\u0020\u007f-\u009f]/.test(trimmed)) return '';
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return '';
  }
  return KEPT_PROTOCOLS.has(parsed.protocol) ? parsed.href : '';
}

/** What a kept link shows after its text: the address for mail, the full URL otherwise. */
export function shownTarget(href: string): string {
  return href.startsWith('mailto:') ? href.slice('mailto:'.length) : href;
}
