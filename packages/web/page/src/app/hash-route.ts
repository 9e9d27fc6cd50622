import { useSyncExternalStore } from 'react';
import { parseRoute, type Route } from './route';

function current(): string {
  return location.hash;
}

function subscribe(listener: () => void): () => void {
  window.addEventListener('hashchange', listener);
  return () => window.removeEventListener('hashchange', listener);
}

/** The route of the current fragment, re-rendered when it changes. */
export function useHashRoute(): Route {
  return parseRoute(useSyncExternalStore(subscribe, current));
}

/** Goes to `#<path>`. */
export function navigate(path: string): void {
  location.hash = path;
}
