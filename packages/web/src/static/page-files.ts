import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';

/** One built file of the page, read once when the server starts. */
export interface PageFile {
  readonly body: Uint8Array;
  readonly contentType: string;
  /** A content-hashed asset (`index-VQ10vJQx.js`): its bytes never change under that name, so browsers may keep it. */
  readonly immutable: boolean;
}

/** The built page: `index.html` and the files of `assets/`, by URL path (`/`, `/assets/index-abc.js`). */
export type PageFiles = ReadonlyMap<string, PageFile>;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** Names a built asset may have: Vite writes `name-hash.ext`; nothing else is ever served. */
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Vite's content hash before the extension (`-VQ10vJQx.js`): a new build writes new names. */
const HASHED_NAME = /-[A-Za-z0-9_-]{8}\.[a-z0-9]+$/;

/**
 * Where the package's `build` target writes the page: `dist/page/` of this package, found from the
 * package's own name, so the answer is the same from `src/` (tests), from `dist/` (the published
 * package) and from an application that bundled this code elsewhere (the `clawsmith` executable).
 */
export const DEFAULT_PAGE_DIRECTORY = join(
  dirname(createRequire(import.meta.url).resolve('@clawsmith/web/package.json')),
  'dist',
  'page',
);

/**
 * Reads the built page into memory: the set of servable paths is fixed at start, so no request
 * path ever reaches the file system. Returns an empty map when the page is not built.
 */
export function loadPageFiles(directory: string = DEFAULT_PAGE_DIRECTORY): PageFiles {
  const files = new Map<string, PageFile>();
  const index = join(directory, 'index.html');
  if (!existsSync(index)) return files;
  files.set('/', { body: readFileSync(index), contentType: CONTENT_TYPES['.html']!, immutable: false });
  const assets = join(directory, 'assets');
  if (!existsSync(assets)) return files;
  for (const name of readdirSync(assets)) {
    const contentType = CONTENT_TYPES[extname(name)];
    const path = join(assets, name);
    if (!contentType || !ASSET_NAME.test(name) || !statSync(path).isFile()) continue;
    files.set(`/assets/${name}`, { body: readFileSync(path), contentType, immutable: HASHED_NAME.test(name) });
  }
  return files;
}
