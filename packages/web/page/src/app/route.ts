/** The page's routes live in the URL fragment: `#/` (sessions) and `#/sessions/<id>`. */
export type Route = { readonly view: 'sessions' } | { readonly view: 'session'; readonly sessionId: string };

/** Parses a fragment into a route; anything unknown is the session list. */
export function parseRoute(hash: string): Route {
  const match = /^#\/sessions\/([A-Za-z0-9][A-Za-z0-9._:-]{0,127})$/.exec(hash);
  return match ? { view: 'session', sessionId: match[1]! } : { view: 'sessions' };
}
