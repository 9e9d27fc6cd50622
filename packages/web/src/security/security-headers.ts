/**
 * Headers every answer carries: a strict Content Security Policy (same-origin only, no inline
 * script or style, no framing), no MIME sniffing, no referrer, and no caching of API answers.
 * No `Access-Control-*` header is ever set: other origins get no CORS access.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
});

/**
 * The one `Cache-Control` an answer may carry instead of `no-store`: the page's content-hashed
 * assets (no data, the same bytes under that name forever), so a reload does not fetch them again.
 */
export const IMMUTABLE_ASSET_CACHE = 'private, max-age=31536000, immutable';

/**
 * Sets {@link SECURITY_HEADERS} on `headers` (keeping only {@link IMMUTABLE_ASSET_CACHE} where a
 * handler set it instead of `no-store`) and removes any CORS header a handler may have added.
 */
export function applySecurityHeaders(headers: Headers): void {
  const immutable = headers.get('Cache-Control') === IMMUTABLE_ASSET_CACHE;
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) headers.set(name, value);
  if (immutable) headers.set('Cache-Control', IMMUTABLE_ASSET_CACHE);
  for (const name of [...headers.keys()]) if (name.startsWith('access-control-')) headers.delete(name);
}
