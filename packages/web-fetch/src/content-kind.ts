/** How a response's body is turned into text. */
export type ContentKind = 'html' | 'text' | 'binary' | 'unknown';

const TEXT_APPLICATION_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/javascript',
  'application/ecmascript',
  'application/x-javascript',
  'application/x-sh',
  'application/x-yaml',
  'application/yaml',
  'application/toml',
  'application/sql',
  'application/graphql',
  'application/x-ndjson',
  'application/rtf',
]);

/** The media type of a `Content-Type` header, without parameters, lower case. */
export function mediaType(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

/** The `charset` parameter of a `Content-Type` header, if any. */
export function charsetOf(contentType: string): string | undefined {
  return /charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType)?.[1];
}

/** Classifies a `Content-Type`: HTML is converted, text returned as is, binary refused, a missing type sniffed. */
export function contentKind(contentType: string): ContentKind {
  const type = mediaType(contentType);
  if (type === '') return 'unknown';
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type.startsWith('text/')) return 'text';
  if (TEXT_APPLICATION_TYPES.has(type) || type.endsWith('+json') || type.endsWith('+xml')) return 'text';
  return 'binary';
}

/** Whether bytes look like a binary file: a NUL byte in the first 4 KiB. */
export function looksBinary(body: Buffer): boolean {
  return body.subarray(0, 4096).includes(0);
}
