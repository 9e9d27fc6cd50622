// The first view's requests, started while the bundle is still being evaluated and React has not
// rendered yet: the views that need the answers take them instead of asking again.
import { getJson } from './api-client';

const started = new Map<string, Promise<unknown>>();

/** Starts a GET of each path now, in order, so a view can take the answer later (once). */
export function prefetchJson(paths: readonly string[]): void {
  for (const path of paths) {
    if (started.has(path)) continue;
    const answer = getJson(path);
    // A failure is reported to whoever takes the answer; untaken, it is not an unhandled rejection.
    answer.catch(() => undefined);
    started.set(path, answer);
  }
}

/** The prefetched answer of `path`, once: a later call (a refresh) gets undefined and asks anew. */
export function takePrefetched<T>(path: string): Promise<T> | undefined {
  const answer = started.get(path);
  started.delete(path);
  return answer as Promise<T> | undefined;
}
