import type { Context } from 'hono';
import type { WebContext } from '../web-context.js';

/** One API route: method, Hono path pattern, and its handler. */
export interface Route {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  /** Routes that need no sign-in (the login itself and the page shell). */
  readonly public?: boolean;
  readonly handler: (c: Context, web: WebContext) => Promise<Response> | Response;
}
