// Everything exported here is the public API of @clawsmith/web-fetch; the surface is pinned by
// public-surface.test.ts. A change to this list is a deliberate change with a changeset.

export type { HostResolver, WebFetchOptions } from './web-fetch-options.js';
export { WEB_FETCH_DEFAULTS } from './web-fetch-options.js';
export { WEB_FETCH_ERROR_CODES, WebFetchError } from './web-fetch-errors.js';
export type { ReadableFetch, RedirectedFetch } from './fetch-readable.js';
export { fetchReadable } from './fetch-readable.js';
export {
  HTTP_ERROR_CODE,
  REDIRECT_TO_OTHER_HOST_CODE,
  createWebFetchTool,
  webFetchInputSchema,
} from './web-fetch-tool.js';
